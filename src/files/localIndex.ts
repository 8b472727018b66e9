/**
 * The local, offline file index: a MiniSearch full-text index over line windows of a folder's
 * files, persisted as one JSON file and updated incrementally — unchanged files (same size and
 * mtime) are not read, touched files are re-indexed only when their sha256 changed, deleted files
 * are dropped, and binary files are skipped with a warning. MiniSearch, the scanner and the index
 * file's code load on the first update or search, not with the module: constructing an index (an
 * agent with `filesFolder`) only checks its options.
 * @module
 */
import { join } from 'node:path';
import type MiniSearch from 'minisearch';
import type { Options as MiniSearchOptions } from 'minisearch';
import type { Logger } from 'pino';
import type { FileEntry } from './indexFile.js';
import {
  folderKey,
  resolveFileSearchOptions,
  type Citation,
  type FileSearchOptions,
} from './options.js';
import type { ReadFileFunction, ScannedFile } from './scan.js';

/** The index's working code, loaded on first use. */
async function engine() {
  const [minisearch, chunks, indexFile, scan, pdf] = await Promise.all([
    import('minisearch'),
    import('./chunks.js'),
    import('./indexFile.js'),
    import('./scan.js'),
    import('./pdfText.js'),
  ]);
  return { MiniSearch: minisearch.default, ...chunks, ...indexFile, ...scan, ...pdf };
}

type Engine = Awaited<ReturnType<typeof engine>>;

/** Options of {@link FileIndex}. */
export interface FileIndexOptions extends Pick<
  FileSearchOptions,
  'indexDir' | 'chunkLines' | 'chunkOverlap' | 'maxFileBytes' | 'maxResults' | 'logger'
> {
  /** Reads a file's bytes (default `fs.readFile`); tests pass a spy. */
  readFile?: ReadFileFunction;
  /** Names the owner (an agent) in errors and warnings (default `FileIndex`). */
  owner?: string;
}

/** What one {@link FileIndex.update} did, paths relative to the folder. */
export interface IndexUpdate {
  added: string[];
  changed: string[];
  removed: string[];
  /** Newly skipped files (binary or too large); each was warned about. */
  skipped: string[];
  /** Files left as they were. */
  unchanged: number;
}

interface ChunkDoc {
  id: string;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
}

const MINISEARCH: MiniSearchOptions<ChunkDoc> = {
  fields: ['text', 'path'],
  storeFields: ['path', 'startLine', 'endLine', 'text'],
  autoVacuum: false,
};

/**
 * A searchable index of one folder.
 *
 * @example
 * ```ts
 * const index = new FileIndex('./docs', { indexDir: './.colloquy/files' });
 * const [top] = await index.search('refund policy'); // updates the index first
 * console.log(`${top.path}:${top.startLine}-${top.endLine} ${top.excerpt}`);
 * ```
 */
export class FileIndex {
  /** The folder's absolute path. */
  readonly folder: string;
  /** The index file, or `null` when the index lives in memory only. */
  readonly indexPath: string | null;
  readonly #options: ReturnType<typeof resolveFileSearchOptions>;
  readonly #owner: string;
  readonly #read: ReadFileFunction | undefined;
  readonly #logger: Logger;
  #files: Record<string, FileEntry> = {};
  /** Made by the first update (with the code it needs). */
  #search: MiniSearch<ChunkDoc> | undefined;
  #engine: Engine | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(folder: string, options: FileIndexOptions = {}) {
    this.#owner = options.owner ?? 'FileIndex';
    this.#options = resolveFileSearchOptions(folder, options, this.#owner);
    this.folder = this.#options.folder;
    this.indexPath =
      this.#options.indexDir === null
        ? null
        : join(this.#options.indexDir, `${folderKey(this.folder)}.json`);
    this.#read = options.readFile;
    this.#logger = this.#options.logger;
  }

  /** Brings the index up to date with the folder and saves it if anything changed. */
  update(): Promise<IndexUpdate> {
    const run = this.#queue.then(() => this.#update());
    this.#queue = run.catch(() => undefined); // the caller of run gets its error; the next update runs
    return run;
  }

  /** Updates the index, then returns the best `limit` (default `maxResults`) citations for `query`. */
  async search(query: string, options: { limit?: number } = {}): Promise<Citation[]> {
    await this.update();
    const limit = options.limit ?? this.#options.maxResults;
    if (query.trim() === '') return [];
    const { citeLines } = this.#engine!;
    const hits = this.#search!.search(query, {
      prefix: true,
      fuzzy: 0.2,
      boost: { text: 2 },
      combineWith: 'OR',
    });
    const citations: Citation[] = [];
    for (const hit of hits) {
      const range = citeLines(
        { startLine: hit.startLine, endLine: hit.endLine, text: hit.text },
        hit.terms,
      );
      const overlaps = citations.some(
        (c) => c.path === hit.path && c.startLine <= range.endLine && range.startLine <= c.endLine,
      );
      if (overlaps) continue;
      citations.push({
        path: hit.path as string,
        ...range,
        score: Math.round(hit.score * 100) / 100,
      });
      if (citations.length >= limit) break;
    }
    return citations;
  }

  async #update(): Promise<IndexUpdate> {
    const { scanFolder, saveIndexFile, FILE_INDEX_SCHEMA_VERSION } = await this.#load();
    const search = this.#search!;
    const report: IndexUpdate = { added: [], changed: [], removed: [], skipped: [], unchanged: 0 };
    const scanned = await scanFolder(this.folder, this.#owner);
    const present = new Set(scanned.map((file) => file.path));
    for (const path of Object.keys(this.#files)) {
      if (present.has(path)) continue;
      this.#drop(path);
      report.removed.push(path);
    }
    for (const file of scanned) await this.#refresh(file, report);
    const dirty =
      report.added.length + report.changed.length + report.removed.length + report.skipped.length >
      0;
    if (dirty && search.dirtCount > 0) await search.vacuum({ batchWait: 0 });
    if (dirty && this.indexPath) {
      await saveIndexFile(this.indexPath, {
        schemaVersion: FILE_INDEX_SCHEMA_VERSION,
        folder: this.folder,
        chunkLines: this.#options.chunkLines,
        chunkOverlap: this.#options.chunkOverlap,
        files: this.#files,
        index: search.toJSON() as unknown as Record<string, unknown>,
      });
    }
    return report;
  }

  async #refresh(file: ScannedFile, report: IndexUpdate): Promise<void> {
    const known = this.#files[file.path];
    if (known && known.size === file.size && known.mtimeMs === file.mtimeMs) {
      report.unchanged += 1;
      return;
    }
    const stat = { size: file.size, mtimeMs: file.mtimeMs };
    const { isPdf, hasBinaryExtension, sha256, pdfText, looksBinary, chunkText, readFileBytes } =
      this.#engine!;
    const pdf = isPdf(file.path);
    if ((hasBinaryExtension(file.path) && !pdf) || file.size > this.#options.maxFileBytes) {
      this.#skip(file, known, { ...stat, sha256: '', chunks: 0 }, report);
      return;
    }
    const bytes = await (this.#read ?? readFileBytes)(file.absolutePath);
    const hash = sha256(bytes);
    if (known && known.sha256 === hash && !known.skipped) {
      this.#files[file.path] = { ...known, ...stat };
      report.unchanged += 1;
      return;
    }
    const text = pdf
      ? await pdfText(bytes).catch(() => null) // unreadable PDF: skipped and counted, like binary
      : looksBinary(bytes)
        ? null
        : bytes.toString('utf8');
    if (text === null) {
      this.#skip(file, known, { ...stat, sha256: hash, chunks: 0 }, report);
      return;
    }
    if (known) this.#drop(file.path);
    const chunks = chunkText(text, this.#options.chunkLines, this.#options.chunkOverlap);
    this.#search!.addAll(
      chunks.map((chunk, i) => ({ id: `${file.path}#${i}`, path: file.path, ...chunk })),
    );
    this.#files[file.path] = { ...stat, sha256: hash, chunks: chunks.length };
    (known ? report.changed : report.added).push(file.path);
  }

  #skip(
    file: ScannedFile,
    known: FileEntry | undefined,
    entry: FileEntry,
    report: IndexUpdate,
  ): void {
    const reason = file.size > this.#options.maxFileBytes ? 'too large' : 'binary';
    if (known) this.#drop(file.path);
    this.#files[file.path] = { ...entry, skipped: reason };
    report.skipped.push(file.path);
    this.#logger.warn(
      { folder: this.folder, path: file.path, reason },
      `${this.#owner}: skipped "${file.path}" in ${this.folder}: ${reason === 'binary' ? 'a binary file' : `larger than ${this.#options.maxFileBytes} bytes`}; only text files are searchable.`,
    );
  }

  #drop(path: string): void {
    const entry = this.#files[path];
    for (let i = 0; i < (entry?.chunks ?? 0); i++) this.#search!.discard(`${path}#${i}`);
    delete this.#files[path];
  }

  /** Loads the code and, the first time, the saved index (or starts an empty one). */
  async #load(): Promise<Engine> {
    if (this.#engine) return this.#engine;
    const code = await engine();
    const data = this.indexPath ? await code.loadIndexFile(this.indexPath) : null;
    const compatible =
      data !== null &&
      data.folder === this.folder &&
      data.chunkLines === this.#options.chunkLines &&
      data.chunkOverlap === this.#options.chunkOverlap;
    if (compatible) {
      this.#search = code.MiniSearch.loadJS<ChunkDoc>(data.index as never, MINISEARCH);
      this.#files = data.files;
    } else this.#search = new code.MiniSearch<ChunkDoc>(MINISEARCH);
    this.#engine = code;
    return code;
  }
}
