/**
 * Chat ids on the wire. A chat id is any well-formed text (see `idSchema`), but an HTTP header
 * holds bytes 0x20–0x7E only, so the `x-colloquy-chat-id` header carries the id
 * percent-encoded: its UTF-8 bytes outside visible ASCII, and `%` itself, as `%XX` (the
 * value-chars encoding of RFC 8187, without the charset prefix). An ASCII id without `%` or
 * spaces reads the same encoded. Requests may send the header encoded the same way; a value
 * whose escapes are not UTF-8 gets a 400 naming the header.
 * @module
 */
import type { Context } from 'hono';
import { HttpError } from './errors.js';
import { nodeResponse, requestHeader } from './requestHeader.js';

/** The header carrying the chat id, in requests and responses (percent-encoded UTF-8). */
export const CHAT_ID_HEADER = 'x-colloquy-chat-id';

const HEX = '0123456789ABCDEF';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether `text` holds no lone UTF-16 surrogate. */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** A 400 for chat id text that is not well-formed Unicode, naming `field`. */
function notText(field: string, detail: string): HttpError {
  return new HttpError(
    400,
    'INVALID_BODY',
    `${field} is not a valid chat id: ${detail}. Send the id as well-formed UTF-8 text (letters, digits, "-" and "_" are safest).`,
    field,
  );
}

/**
 * `id` as a header value: UTF-8 bytes outside 0x21–0x7E, and `%`, become `%XX`.
 *
 * @example
 * ```ts
 * encodeChatIdHeader('チャット-1'); // '%E3%83%81%E3%83%A3%E3%83%83%E3%83%88-1'
 * ```
 */
export function encodeChatIdHeader(id: string): string {
  if (!isWellFormed(id)) throw notText('The chat id', 'it holds a lone UTF-16 surrogate');
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const plain = byte > 0x20 && byte < 0x7f && byte !== 0x25;
    out += plain ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

/**
 * The chat id of a header value: `%XX` escapes are decoded as UTF-8 bytes (characters above
 * 0x7E, as Node reads raw UTF-8 header bytes, are taken as those bytes). A `%` without two hex
 * digits, or bytes that are not UTF-8, get a 400 naming the header.
 */
export function decodeChatIdHeader(value: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x25) {
      const hex = value.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) {
        throw notText(
          `${CHAT_ID_HEADER} header`,
          `"%" at index ${i} is not followed by two hex digits (send "%" as "%25")`,
        );
      }
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (code <= 0xff) {
      bytes.push(code);
    } else {
      bytes.push(...Buffer.from(String.fromCodePoint(value.codePointAt(i)!), 'utf8'));
      if (code >= 0xd800 && code <= 0xdbff) i++;
    }
  }
  return decodeUtf8(Uint8Array.from(bytes), `${CHAT_ID_HEADER} header`);
}

/** `bytes` as UTF-8 text, or a 400 naming `field`. */
export function decodeUtf8(bytes: Uint8Array, field: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw notText(field, 'its bytes are not valid UTF-8');
  }
}

/** Refuses a chat id that is not well-formed text (a lone surrogate) with a 400 naming `field`. */
export function checkChatIdText(id: string, field: string): string {
  if (!isWellFormed(id)) throw notText(field, 'it holds a lone UTF-16 surrogate');
  return id;
}

/** The request's chat id header, decoded, or `undefined` when absent. */
export function readChatIdHeader(c: Context): string | undefined {
  const value = requestHeader(c, CHAT_ID_HEADER);
  return value === undefined ? undefined : decodeChatIdHeader(value);
}

/**
 * Sets the response's chat id header, percent-encoded: on the Node response when there is one
 * (`c.header()` there gives the route's response a web `Headers`, which the adapter iterates,
 * sorted, to write the head), else on the route's response.
 */
export function setChatIdHeader(c: Context, chatId: string): void {
  const value = encodeChatIdHeader(chatId);
  const outgoing = nodeResponse(c);
  if (outgoing) outgoing.setHeader(CHAT_ID_HEADER, value);
  else c.header(CHAT_ID_HEADER, value);
}

/**
 * The chat id inside the base64url part of a response id, decoded as strict UTF-8: invalid
 * bytes are a 400 naming `previous_response_id` (never a chat id with U+FFFD in it).
 */
export function chatIdOfBase64url(encoded: string): string {
  return decodeUtf8(Buffer.from(encoded, 'base64url'), 'previous_response_id');
}
