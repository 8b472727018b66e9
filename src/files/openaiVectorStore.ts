/**
 * `openai` mode: keeps an OpenAI vector store in step with a folder. The store is found by name
 * (created on first use) so that every run reuses it; a manifest beside the local index records
 * each uploaded file's sha256 and file id, so only new and changed files are uploaded, and files
 * deleted from the folder are removed from the store. A folder agency-swarm v1 renamed
 * (`<name>_vs_<id>`) keeps its vector store, and its files named `<name>_file-<id>.<ext>` count as
 * uploaded (see `agencySwarmFolder.ts`).
 * @module
 */
import { basename, extname, join } from 'node:path';
import type OpenAI from 'openai';
import { ConfigError } from '../errors.js';
import { swarmFileId } from './agencySwarmFolder.js';
import type { VectorStoreManifest } from './openaiManifest.js';
import {
  folderKey,
  resolveFileSearchOptions,
  type FileSearchOptions,
  type ResolvedFileSearchOptions,
} from './options.js';
import {
  hasBinaryExtension,
  looksBinary,
  readFileBytes,
  scanFolder,
  sha256,
  type ReadFileFunction,
  type ScannedFile,
} from './scan.js';

/** Extensions OpenAI file search accepts as they are; other text files are uploaded as `<name>.txt`. */
const ACCEPTED = new Set(
  'c cpp cs css doc docx go html java js json md pdf php pptx py rb sh tex ts txt'.split(' '),
);
/** Binary formats OpenAI file search reads itself. */
const BINARY_ACCEPTED = new Set(['pdf', 'doc', 'docx', 'pptx']);

/** Options of {@link OpenAIVectorStoreSync}. */
export interface OpenAIVectorStoreSyncOptions extends Omit<FileSearchOptions, 'mode'> {
  readFile?: ReadFileFunction;
  owner?: string;
}

/** What one sync did, paths relative to the folder. */
export interface VectorStoreSyncResult {
  vectorStoreId: string;
  uploaded: string[];
  removed: string[];
  skipped: string[];
  /** Files agency-swarm had uploaded (`<name>_file-<id>.<ext>`), recorded without uploading. */
  reused: string[];
  unchanged: number;
}

/** Syncs one folder to one vector store. */
export class OpenAIVectorStoreSync {
  readonly folder: string;
  /** The manifest file, or `null` when the index directory is in memory only. */
  readonly manifestPath: string | null;
  readonly #options: ResolvedFileSearchOptions;
  readonly #owner: string;
  readonly #read: ReadFileFunction;
  #memoryManifest: VectorStoreManifest | null = null;

  constructor(folder: string, options: OpenAIVectorStoreSyncOptions = {}) {
    this.#owner = options.owner ?? 'OpenAIVectorStoreSync';
    this.#options = resolveFileSearchOptions(folder, { ...options, mode: 'openai' }, this.#owner);
    this.folder = this.#options.folder;
    const dir = this.#options.indexDir;
    this.manifestPath = dir === null ? null : join(dir, `${folderKey(this.folder)}.openai.json`);
    this.#read = options.readFile ?? readFileBytes;
  }

  /** The vector store's name. */
  get vectorStoreName(): string {
    return this.#options.vectorStoreName;
  }

  /** Finds or creates the vector store, uploads new and changed files, removes deleted ones. */
  async sync(): Promise<VectorStoreSyncResult> {
    const client = await this.#client();
    const name = this.#options.vectorStoreName;
    const swarmId = this.#options.swarmVectorStoreId;
    const vectorStoreId = swarmId
      ? await this.#checkStore(client, swarmId)
      : ((await this.#findStore(client, name)) ?? (await client.vectorStores.create({ name })).id);
    const { loadManifest } = await import('./openaiManifest.js');
    const stored = this.manifestPath ? await loadManifest(this.manifestPath) : this.#memoryManifest;
    const manifest: VectorStoreManifest =
      stored && stored.vectorStoreId === vectorStoreId && stored.folder === this.folder
        ? stored
        : {
            schemaVersion: 1,
            folder: this.folder,
            vectorStoreId,
            vectorStoreName: name,
            files: {},
          };
    const result: VectorStoreSyncResult = {
      vectorStoreId,
      uploaded: [],
      removed: [],
      skipped: [],
      reused: [],
      unchanged: 0,
    };
    const scanned = await scanFolder(this.folder, this.#owner);
    const present = new Set(scanned.map((file) => file.path));
    for (const [path, entry] of Object.entries(manifest.files)) {
      if (present.has(path)) continue;
      await this.#remove(client, vectorStoreId, entry.fileId);
      delete manifest.files[path];
      result.removed.push(path);
      await this.#save(manifest);
    }
    for (const file of scanned) await this.#syncFile(client, manifest, file, result);
    await this.#save(manifest);
    return result;
  }

  async #syncFile(
    client: OpenAI,
    manifest: VectorStoreManifest,
    file: ScannedFile,
    result: VectorStoreSyncResult,
  ): Promise<void> {
    const known = manifest.files[file.path];
    if (known && known.size === file.size && known.mtimeMs === file.mtimeMs) {
      result.unchanged += 1;
      return;
    }
    const ext = extname(file.path).slice(1).toLowerCase();
    const tooLarge = file.size > this.#options.maxFileBytes;
    if (tooLarge || (hasBinaryExtension(file.path) && !BINARY_ACCEPTED.has(ext))) {
      this.#warn(
        file.path,
        tooLarge ? `larger than ${this.#options.maxFileBytes} bytes` : 'a binary file',
        result,
      );
      return;
    }
    const bytes = await this.#read(file.absolutePath);
    const hash = sha256(bytes);
    const stat = { size: file.size, mtimeMs: file.mtimeMs };
    if (known && known.sha256 === hash) {
      manifest.files[file.path] = { ...known, ...stat };
      result.unchanged += 1;
      return;
    }
    const swarmId = known ? null : swarmFileId(file.path);
    if (swarmId) {
      manifest.files[file.path] = { ...stat, sha256: hash, fileId: swarmId };
      result.reused.push(file.path);
      return;
    }
    if (!BINARY_ACCEPTED.has(ext) && looksBinary(bytes)) {
      this.#warn(file.path, 'a binary file', result);
      return;
    }
    const uploadName = ACCEPTED.has(ext) ? basename(file.path) : `${basename(file.path)}.txt`;
    const uploaded = await client.files.create({
      file: await (await import('openai')).toFile(bytes, uploadName),
      purpose: 'assistants',
    });
    await client.vectorStores.files.create(manifest.vectorStoreId, {
      file_id: uploaded.id,
      attributes: { path: file.path },
    });
    if (known) await this.#remove(client, manifest.vectorStoreId, known.fileId);
    manifest.files[file.path] = { ...stat, sha256: hash, fileId: uploaded.id };
    result.uploaded.push(file.path);
    await this.#save(manifest);
  }

  /** The vector store an agency-swarm folder names, checked to exist. */
  async #checkStore(client: OpenAI, id: string): Promise<string> {
    try {
      return (await client.vectorStores.retrieve(id)).id;
    } catch (error) {
      if ((error as { status?: unknown }).status !== 404) throw error;
      throw new ConfigError(
        `${this.#owner}: filesFolder "${this.folder}" is named after vector store ${id} (agency-swarm's <name>_vs_<id>), which this API key cannot find. ` +
          `Use the key of the project that owns it, or rename the folder without "_${id}" to upload into a new store.`,
        { cause: error },
      );
    }
  }

  async #findStore(client: OpenAI, name: string): Promise<string | null> {
    for await (const store of client.vectorStores.list({ limit: 100 })) {
      if (store.name === name) return store.id;
    }
    return null;
  }

  /** Detaches and deletes an uploaded file; one that is already gone counts as removed. */
  async #remove(client: OpenAI, vectorStoreId: string, fileId: string): Promise<void> {
    await ignoreNotFound(
      client.vectorStores.files.delete(fileId, { vector_store_id: vectorStoreId }),
    );
    await ignoreNotFound(client.files.delete(fileId));
  }

  async #save(manifest: VectorStoreManifest): Promise<void> {
    if (this.manifestPath)
      await (await import('./openaiManifest.js')).saveManifest(this.manifestPath, manifest);
    else this.#memoryManifest = manifest;
  }

  #warn(path: string, reason: string, result: VectorStoreSyncResult): void {
    result.skipped.push(path);
    this.#options.logger.warn(
      { folder: this.folder, path, reason },
      `${this.#owner}: skipped "${path}" in ${this.folder}: ${reason}; it is not uploaded to the vector store.`,
    );
  }

  /** The client (the OpenAI packages load here, on the first sync, not with every Agent). */
  async #client(): Promise<OpenAI> {
    if (this.#options.client) return this.#options.client;
    const [{ getDefaultOpenAIClient }, { default: OpenAI }] = await Promise.all([
      import('@openai/agents-openai'),
      import('openai'),
    ]);
    const client = getDefaultOpenAIClient() as OpenAI | undefined;
    if (client) return client;
    try {
      return new OpenAI();
    } catch (error) {
      throw new ConfigError(
        `${this.#owner}: fileSearch 'openai' needs an OpenAI client: ${(error as Error).message} ` +
          "Set OPENAI_API_KEY, pass fileSearch: { mode: 'openai', client }, or use the offline mode fileSearch: 'local'.",
        { cause: error },
      );
    }
  }
}

async function ignoreNotFound(request: Promise<unknown>): Promise<void> {
  try {
    await request;
  } catch (error) {
    if ((error as { status?: unknown }).status !== 404) throw error;
  }
}
