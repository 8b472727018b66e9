/**
 * Text of a PDF, with `unpdf` (a maintained, dependency-free build of Mozilla's pdf.js), so that a
 * files folder's PDFs are searchable like its text files.
 * @module
 */
import { extname } from 'node:path';
import { importOptionalPeer } from '../optionalPeer.js';

/** Whether a path names a PDF (by extension). */
export function isPdf(path: string): boolean {
  return extname(path).toLowerCase() === '.pdf';
}

/** The text of every page of a PDF, pages separated by blank lines. Throws on a broken PDF. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText, getDocumentProxy } = await importOptionalPeer(
    'unpdf',
    () => import('unpdf'),
  );
  const document = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(document, { mergePages: false });
    return text.join('\n\n');
  } finally {
    await document.destroy();
  }
}
