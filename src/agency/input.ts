/**
 * What a user sends: text, or SDK input items (text, `input_image`, `input_file`), plus
 * attachments (local files, uploaded file ids, bytes). The model gets every part inline; the
 * thread keeps inline bytes only by reference (a one-line note naming the file, its type, size
 * and SHA-256), so a 5 MB PDF is sent once, not with every later prompt. File ids and URLs are
 * small and stay as they are.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { AgentInputItem } from '@openai/agents-core';
import { ColloquyError } from '../errors.js';

/** A message to an agency: text, or SDK input items. */
export type AgencyInput = string | AgentInputItem[];

/**
 * A file to send with a message: a local path or an uploaded file id (`file-…`), or one of the
 * object forms. Images become `input_image`, everything else `input_file`.
 */
export type Attachment =
  | string
  | { path: string }
  | { fileId: string; kind?: 'image' | 'file'; filename?: string }
  | { data: Uint8Array | string; mediaType: string; filename?: string };

/** Largest attachment accepted by default: 20 MiB. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
};

/** An attachment could not be read or is not acceptable. */
export class AttachmentError extends ColloquyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ATTACHMENT_INVALID', message, options);
  }
}

/** The items a message becomes: what the model gets, and what the thread keeps. */
export interface PreparedInput {
  /** The user turn as the model gets it (one or more items). */
  model: AgentInputItem[];
  /** The same turn as stored: inline bytes replaced by references. */
  stored: AgentInputItem[];
  /** The text of the turn, for hooks, events and routers. */
  text: string;
}

/** The media type of a file name, by extension (default `application/octet-stream`). */
export function mediaTypeOf(filename: string): string {
  return MEDIA_TYPES[extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

/** Turns a message and its attachments into model and stored items. */
export async function prepareInput(
  message: AgencyInput,
  attachments: readonly Attachment[] = [],
  maxBytes = DEFAULT_MAX_ATTACHMENT_BYTES,
): Promise<PreparedInput> {
  if (typeof message !== 'string' && !Array.isArray(message)) {
    throw new AttachmentError(
      `The message must be a string or an array of input items (got ${typeof message}).`,
    );
  }
  const items: AgentInputItem[] =
    typeof message === 'string' ? [{ role: 'user', content: message }] : [...message];
  if (attachments.length > 0) {
    const parts = await Promise.all(attachments.map((a) => attachmentPart(a, maxBytes)));
    const last = items.at(-1);
    if (last && 'role' in last && last.role === 'user') {
      const content =
        typeof last.content === 'string'
          ? [{ type: 'input_text' as const, text: last.content }]
          : [...last.content];
      items[items.length - 1] = { ...last, content: [...content, ...parts] };
    } else {
      items.push({ role: 'user', content: parts });
    }
  }
  return { model: items, stored: items.map(storedForm), text: textOf(items) };
}

/** {@link prepareInput} of a text message without attachments (no await needed). */
export function textInput(message: string): PreparedInput {
  const items: AgentInputItem[] = [{ role: 'user', content: message }];
  return { model: items, stored: items, text: message };
}

type UserPart = Exclude<Extract<AgentInputItem, { role: 'user' }>['content'], string>[number];

async function attachmentPart(attachment: Attachment, maxBytes: number): Promise<UserPart> {
  if (typeof attachment === 'string') {
    return /^file-[A-Za-z0-9_-]+$/.test(attachment) && !(await exists(attachment))
      ? attachmentPart({ fileId: attachment }, maxBytes)
      : attachmentPart({ path: attachment }, maxBytes);
  }
  if ('fileId' in attachment) {
    return attachment.kind === 'image'
      ? { type: 'input_image', image: { id: attachment.fileId } }
      : {
          type: 'input_file',
          file: { id: attachment.fileId },
          ...(attachment.filename ? { filename: attachment.filename } : {}),
        };
  }
  if ('path' in attachment) {
    let bytes: Buffer;
    try {
      const info = await stat(attachment.path);
      checkSize(info.size, maxBytes, attachment.path);
      bytes = await readFile(attachment.path);
    } catch (error) {
      if (error instanceof AttachmentError) throw error;
      throw new AttachmentError(
        `Attachment "${attachment.path}" could not be read (${(error as Error).message}). Pass the path of a readable file.`,
        { cause: error },
      );
    }
    const filename = basename(attachment.path);
    return inlinePart(bytes, mediaTypeOf(filename), filename);
  }
  const bytes =
    typeof attachment.data === 'string'
      ? Buffer.from(attachment.data, 'base64')
      : Buffer.from(attachment.data);
  checkSize(bytes.length, maxBytes, attachment.filename ?? 'attachment');
  return inlinePart(bytes, attachment.mediaType, attachment.filename ?? 'attachment');
}

function inlinePart(bytes: Buffer, mediaType: string, filename: string): UserPart {
  const url = `data:${mediaType};base64,${bytes.toString('base64')}`;
  return mediaType.startsWith('image/')
    ? { type: 'input_image', image: url, providerData: { filename } }
    : { type: 'input_file', file: url, filename };
}

function checkSize(size: number, maxBytes: number, name: string): void {
  if (size > maxBytes) {
    throw new AttachmentError(
      `Attachment "${name}" is ${size} bytes, over the limit of ${maxBytes}. ` +
        'Send a smaller file, upload it and pass its file id, or raise maxAttachmentBytes.',
    );
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** An item as the thread keeps it: inline data URLs become one-line references. */
export function storedForm(item: AgentInputItem): AgentInputItem {
  if (!('role' in item) || item.role !== 'user' || typeof item.content === 'string') return item;
  let changed = false;
  const content = item.content.map((part) => {
    const reference = referenceOf(part);
    if (!reference) return part;
    changed = true;
    return { type: 'input_text' as const, text: reference };
  });
  return changed ? { ...item, content } : item;
}

function referenceOf(part: UserPart): string | null {
  const data =
    part.type === 'input_image' && typeof part.image === 'string'
      ? part.image
      : part.type === 'input_file' && typeof part.file === 'string'
        ? part.file
        : null;
  if (!data?.startsWith('data:')) return null;
  const comma = data.indexOf(',');
  const mediaType = data.slice(5, comma).replace(/;base64$/, '');
  const bytes = Buffer.from(data.slice(comma + 1), 'base64');
  const name =
    part.type === 'input_file'
      ? part.filename
      : (part.providerData?.filename as string | undefined);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return `[attachment: ${name ?? 'inline'} (${mediaType}, ${bytes.length} bytes, sha256:${hash}) sent earlier]`;
}

function textOf(items: readonly AgentInputItem[]): string {
  return items
    .flatMap((item) => {
      if (!('role' in item) || item.role !== 'user') return [];
      if (typeof item.content === 'string') return [item.content];
      return item.content.map((part) => (part.type === 'input_text' ? part.text : ''));
    })
    .filter((text) => text !== '')
    .join('\n');
}
