/** examples/agency/attachments.ts runs offline and its scripted model gets both files. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const EXAMPLE = fileURLToPath(new URL('../../examples/agency/attachments.ts', import.meta.url));

describe('examples/agency/attachments.ts', () => {
  it('sends an image and a PDF that the model receives, and stores them by reference', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', EXAMPLE]);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('I received chart.png (an image) and tides.pdf (a PDF).');
    expect(lines[1]).toMatch(/^No files this time/);
    expect(lines[2]).toContain('[attachment: tides.pdf (application/pdf, 596 bytes');
    expect(lines[2]).not.toContain('base64');
  }, 30_000);
});
