/**
 * What a report's webview may ask the host to open: the source URLs its model names (flame frames,
 * hot functions and lines, deopts and their inlining sites, both runs of a comparison). A webview
 * message is data; a path that no frame of the open report names is not opened on its say-so.
 */

const cache = new WeakMap<object, ReadonlySet<string>>();

/** Every string under a `url` key anywhere in the model, walked without recursion (flame trees run deep). */
export function namedSourceUrls(model: object): ReadonlySet<string> {
  const cached = cache.get(model);
  if (cached) return cached;
  const urls = new Set<string>();
  const pending: unknown[] = [model];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    for (const [key, field] of Object.entries(value)) {
      if (key === 'url' && typeof field === 'string' && field !== '') urls.add(field);
      else if (typeof field === 'object' && field !== null) pending.push(field);
    }
  }
  cache.set(model, urls);
  return urls;
}

/**
 * Whether a webview's request to open `url` (resolved here to `path`) is honoured: the open report
 * names that URL, or the file is inside one of the workspace folders. Paths are compared by their
 * keys (symlinks resolved: see annotations/sourcePaths.ts pathKey), so `..` and links cannot leave
 * a folder unnoticed.
 */
export function mayOpenSource(url: string, path: string, named: ReadonlySet<string>, workspaceRoots: readonly string[], key: (path: string) => string): boolean {
  if (named.has(url)) return true;
  const file = key(path);
  return workspaceRoots.some((root) => {
    const folder = key(root);
    return file === folder || file.startsWith(folder.endsWith('/') ? folder : `${folder}/`); // keys use '/' everywhere
  });
}
