/**
 * Prints test/source line ratios per folder of `src/` and overall. A folder's tests are the `.ts`
 * files under `test/<folder>/` (helpers and fixture modules included); the base files of `src/`
 * (`errors.ts`, `config.ts`, …) are matched by the `.ts` files directly in `test/`. `src/testing/`
 * is the store conformance suite, published for other stores' tests: it is counted as test code of
 * `stores` (and of the overall figure), not as source. Run:
 * `npx tsx scripts/testRatio.ts` (or `npm run ratio`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Lines of every `.ts` file under `dir` (recursively), or of the `.ts` files directly in it. */
function lines(dir: string, recursive: boolean): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive }).map(String);
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry);
    if (!entry.endsWith('.ts') || !statSync(file).isFile()) continue;
    total += readFileSync(file, 'utf8').split('\n').length - 1;
  }
  return total;
}

const folders = readdirSync(path.join(root, 'src')).filter(
  (name) => name !== 'testing' && statSync(path.join(root, 'src', name)).isDirectory(),
);
const conformance = lines(path.join(root, 'src', 'testing'), true);
const rows: Array<[string, number, number]> = [
  ['(base files)', lines(path.join(root, 'src'), false), lines(path.join(root, 'test'), false)],
  ...folders.map((name): [string, number, number] => [
    name,
    lines(path.join(root, 'src', name), true),
    lines(path.join(root, 'test', name), true) + (name === 'stores' ? conformance : 0),
  ]),
];
const overall: [string, number, number] = [
  'overall',
  lines(path.join(root, 'src'), true) - conformance,
  lines(path.join(root, 'test'), true) + conformance,
];

const ratio = (src: number, test: number) => (src === 0 ? '-' : (test / src).toFixed(2));
console.log(
  `${'folder'.padEnd(14)}${'src'.padStart(7)}${'test'.padStart(7)}${'ratio'.padStart(7)}`,
);
for (const [name, src, test] of [...rows, overall]) {
  console.log(
    `${name.padEnd(14)}${String(src).padStart(7)}${String(test).padStart(7)}${ratio(src, test).padStart(7)}`,
  );
}
