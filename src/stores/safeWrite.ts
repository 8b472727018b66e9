/**
 * Verified file writes for the JSON-file store. Every byte count is checked (a short write, as on
 * a full disk, is an error, never a success), data is fsynced before it is acknowledged, and a
 * failed write leaves the file as it was: an append is cut back to the old length, a replacement
 * goes through a temp file that is only renamed over the old one once it is complete.
 * @module
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Options of {@link appendVerified} and {@link replaceVerified}. */
export interface VerifiedWriteOptions {
  /** fsync before returning (default `true`). */
  fsync?: boolean;
}

/** An error for a write that stored fewer bytes than it was given. */
function shortWrite(file: string, written: number, expected: number): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `short write to "${path.basename(file)}": ${written} of ${expected} bytes stored (is the disk full?)`,
  );
  error.code = 'ENOSPC';
  return error;
}

/** Writes all of `data` at the handle's position, looping over partial writes. */
async function writeAll(handle: fs.FileHandle, file: string, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten <= 0) throw shortWrite(file, offset, data.length);
    offset += bytesWritten;
  }
}

/**
 * Appends `data` to `file` (created when missing) at byte `at`, its current valid length: bytes
 * after `at` (a torn tail left by a crash) are cut first. Verifies the new length and fsyncs. On
 * any failure the file is cut back to `at` and the error is thrown. Returns the new length.
 */
export async function appendVerified(
  file: string,
  at: number,
  data: Buffer,
  options: VerifiedWriteOptions = {},
): Promise<number> {
  const handle = await fs.open(file, 'a+');
  try {
    const before = (await handle.stat()).size;
    if (before !== at) await handle.truncate(at);
    try {
      await writeAll(handle, file, data);
      if (options.fsync ?? true) await handle.sync();
      const size = (await handle.stat()).size;
      if (size !== at + data.length) throw shortWrite(file, size - at, data.length);
      return size;
    } catch (error) {
      // Put the file back as it was; on a full disk, truncating frees the partial bytes.
      // Undoing a failed append: the append's error is the one to report.
      await handle.truncate(at).catch(() => undefined);
      if (options.fsync ?? true) await handle.sync().catch(() => undefined);
      throw error;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `file` with `data` atomically: writes a temp file next to it, verifies its length,
 * fsyncs it, renames it over `file` and fsyncs the directory. On failure the temp file is removed
 * and `file` is untouched.
 */
export async function replaceVerified(
  file: string,
  data: Buffer,
  options: VerifiedWriteOptions = {},
): Promise<void> {
  const fsync = options.fsync ?? true;
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await writeAll(handle, temp, data);
      if (fsync) await handle.sync();
      const size = (await handle.stat()).size;
      if (size !== data.length) throw shortWrite(temp, size, data.length);
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined); // the write's error is reported
    throw error;
  }
  if (fsync) await syncDir(path.dirname(file));
}

/** fsyncs a directory so that a rename in it survives power loss (best effort on platforms without it). */
async function syncDir(dir: string): Promise<void> {
  // Some platforms cannot open a directory to sync it: the file's own fsync stands.
  const handle = await fs.open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory.
  } finally {
    await handle.close();
  }
}
