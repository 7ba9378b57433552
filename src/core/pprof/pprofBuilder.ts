/**
 * Builds a pprof `Profile` (profile.proto, encoded by `pprof-format`): one Function and one
 * Location per distinct frame, interned, so a frame that appears in many stacks is written once.
 */
import { Function as PprofFunction, Label, Location, Line, Profile, Sample, StringTable, ValueType, type LabelInput } from 'pprof-format';
import { pprofFunctionName, type PprofFrame } from './pprofNames';

export type { PprofFrame } from './pprofNames';

export interface PprofValueType {
  type: string;
  unit: string;
}

/** A label on a sample: text or a number (with its unit). */
export type PprofLabel = { key: string; str: string } | { key: string; num: number; unit?: string };

export class PprofBuilder {
  private readonly strings = new StringTable();
  private readonly functions: PprofFunction[] = [];
  private readonly locations: Location[] = [];
  private readonly samples: Sample[] = [];
  private readonly locationByKey = new Map<string, number>();

  /** `fileRoot`: the run's working folder, which anonymous functions' files are named relative to (see pprofNames.ts). */
  constructor(
    private readonly sampleTypes: readonly PprofValueType[],
    private readonly fileRoot: string | null = null,
  ) {}

  /** The Location id of a frame (1-based, as pprof's ids are). */
  location(frame: PprofFrame): number {
    const key = `${frame.name}\u0000${frame.url}\u0000${frame.line}\u0000${frame.column}`;
    let id = this.locationByKey.get(key);
    if (id === undefined) {
      id = this.locations.length + 1;
      this.functions.push(new PprofFunction({
        id,
        name: this.strings.dedup(pprofFunctionName(frame, this.fileRoot)),
        systemName: this.strings.dedup(frame.name),
        filename: this.strings.dedup(frame.url),
        startLine: frame.line,
      }));
      this.locations.push(new Location({ id, line: [new Line({ functionId: id, line: frame.line, column: frame.column })] }));
      this.locationByKey.set(key, id);
    }
    return id;
  }

  /** One sample: its stack leaf first (Location ids), one value per sample type. */
  sample(stack: readonly number[], values: readonly number[], labels: readonly PprofLabel[] = []): void {
    if (values.length !== this.sampleTypes.length) throw new Error(`a sample needs ${this.sampleTypes.length} values, got ${values.length}`);
    this.samples.push(new Sample({ locationId: [...stack], value: values.map((v) => Math.round(v)), label: labels.map((l) => this.label(l)) }));
  }

  get sampleCount(): number {
    return this.samples.length;
  }

  build(options: { period: PprofValueType & { value: number }; defaultSampleType: string; timeNanos: number; durationNanos: number; comments: readonly string[] }): Profile {
    const valueType = (t: PprofValueType) => new ValueType({ type: this.strings.dedup(t.type), unit: this.strings.dedup(t.unit) });
    return new Profile({
      sampleType: this.sampleTypes.map(valueType),
      sample: this.samples,
      location: this.locations,
      function: this.functions,
      periodType: valueType(options.period),
      period: Math.round(options.period.value),
      timeNanos: Math.round(options.timeNanos),
      durationNanos: Math.round(options.durationNanos),
      comment: options.comments.map((c) => this.strings.dedup(c)),
      defaultSampleType: this.strings.dedup(options.defaultSampleType),
      stringTable: this.strings,
    });
  }

  private label(l: PprofLabel): Label {
    const input: LabelInput = { key: this.strings.dedup(l.key) };
    if ('str' in l) input.str = this.strings.dedup(l.str);
    else {
      input.num = Math.round(l.num);
      if (l.unit) input.numUnit = this.strings.dedup(l.unit);
    }
    return new Label(input);
  }
}
