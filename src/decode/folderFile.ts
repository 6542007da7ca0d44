import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A name a mapping gives (an entry's file, a list's or a lookup's `from:`), as found inside the inputs' folder. */
export type FolderFile =
  | {
      kind: 'file';
      /** Its real path: what is read, so a link swapped after the check is not followed. */ path: string;
    }
  | { kind: 'missing' }
  | { kind: 'refused'; /** Why, after "NAME: ". */ reason: string };

/** Whether `path` lies strictly inside `folder`. */
function isInside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest !== '' && rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
}

/**
 * The real path of a folder (the one every file it holds must stay inside), or the folder as given when it
 * cannot be resolved.
 */
export async function realFolder(folder: string): Promise<string> {
  return realpath(folder).catch(() => resolve(folder));
}

/**
 * Where `name` points inside `folder` (`real`: the folder's real path): refused when its text
 * leaves the folder (`../x.csv`, an absolute path) or its real path does, through a symbolic
 * link; a loop of links is refused too (the system stops resolving it: nothing hangs).
 */
export async function findInFolder(folder: string, real: string, name: string): Promise<FolderFile> {
  if (isAbsolute(name) || !isInside(resolve(folder), resolve(folder, name)))
    return { kind: 'refused', reason: "not inside the inputs' folder" };
  let path: string;
  try {
    path = await realpath(join(folder, name));
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'ELOOP'
      ? { kind: 'refused', reason: 'a loop of symbolic links' }
      : { kind: 'missing' };
  }
  if (!isInside(real, path))
    return { kind: 'refused', reason: `a symbolic link to ${path}, outside the inputs' folder` };
  // A folder, a named pipe or a device is no export: reading a pipe would wait forever.
  return (await stat(path).then(
    (info) => info.isFile(),
    () => false,
  ))
    ? { kind: 'file', path }
    : { kind: 'missing' };
}
