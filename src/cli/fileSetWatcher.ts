/**
 * Watches a set of files (not whole folders): one non-recursive watcher per folder holding a
 * watched file, and a change to any other file of that folder is ignored. `colloquy dev` sets it
 * to the loaded module's import graph after every load.
 * @module
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** A watcher of a changing set of files. */
export interface FileSetWatcher {
  /** The files watched now (absolute paths). */
  readonly files: ReadonlySet<string>;
  /** Watches exactly `files` from now on. */
  set(files: Iterable<string>): void;
  close(): void;
}

/** Calls `onChange(file)` when one of the watched files changes, is created or is removed. */
export function watchFileSet(onChange: (file: string) => void): FileSetWatcher {
  let files = new Set<string>();
  const folders = new Map<string, FSWatcher>();
  return {
    get files() {
      return files;
    },
    set(next) {
      files = new Set([...next].map((file) => path.resolve(file)));
      const wanted = new Set([...files].map((file) => path.dirname(file)));
      for (const [folder, watcher] of folders) {
        if (wanted.has(folder)) continue;
        watcher.close();
        folders.delete(folder);
      }
      for (const folder of wanted) {
        if (folders.has(folder)) continue;
        try {
          const watcher = watch(folder, (_event, name) => {
            const file = path.join(folder, name?.toString() ?? '');
            if (files.has(file)) onChange(file);
          });
          folders.set(folder, watcher);
        } catch (error) {
          // A folder removed since the graph was read: nothing in it to watch.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    },
    close() {
      for (const watcher of folders.values()) watcher.close();
      folders.clear();
    },
  };
}
