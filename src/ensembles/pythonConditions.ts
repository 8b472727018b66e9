/**
 * ADR-005's condition syntax, Python such as `context.get('needs_clarification', False)`,
 * accepted by translating a small safe subset to CEL. Nothing is ever evaluated as Python: the
 * text is tokenized and parsed here, and the CEL it becomes is checked and run like any other
 * condition. The subset:
 *
 * - `context.get('key')`, `context.get('key', default)`, `context['key']` (chained: `['a']['b']`,
 *   `.get('a', None)`), and `context` itself (e.g. `'key' in context`);
 * - `turn_count`; `len(x)`;
 * - `True`, `False`, `None`, numbers, strings;
 * - `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `not in`, `is None`, `is not None`; `and`, `or`,
 *   `not`; parentheses.
 *
 * In a dependency's condition `context` is that dependency's latest output (`outputs.<agent>`),
 * which is what ADR-005's example means: the analyzer prints `{"needs_clarification": true}` and
 * its dependent's condition reads `context.get('needs_clarification', False)`.
 * @module
 */

/** A translated condition, or the problem and the CEL to write instead. */
export type PythonTranslation =
  { cel: string } | { problem: { message: string; offset: number; suggestion: string } };

interface Token {
  kind: 'name' | 'number' | 'string' | 'op' | 'end';
  text: string;
  /** For strings: the value. */
  value?: string;
  offset: number;
}

/** Identifiers that only Python conditions use (CEL conditions see state, turn, outputs, ...). */
const PYTHON_NAMES = new Set([
  'context',
  'turn_count',
  'and',
  'or',
  'not',
  'is',
  'True',
  'False',
  'None',
  'len',
]);
const OPERATORS = ['==', '!=', '<=', '>=', '<', '>', '(', ')', '[', ']', '.', ','];
const LITERALS: Record<string, string> = { True: 'true', False: 'false', None: 'null' };
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

class TranslationError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function readString(text: string, start: number): Token {
  const quote = text[start]!;
  let value = '';
  let i = start + 1;
  while (i < text.length && text[i] !== quote) {
    if (text[i] === '\\') {
      const next = text[i + 1];
      const escapes: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', "'": "'", '"': '"' };
      if (next === undefined || escapes[next] === undefined)
        throw new TranslationError(`the escape \\${next ?? ''} in a string`, i);
      value += escapes[next];
      i += 2;
    } else value += text[i++];
  }
  if (i >= text.length) throw new TranslationError('a string that is never closed', start);
  return { kind: 'string', text: text.slice(start, i + 1), value, offset: start };
}

/** Whether a `-` starts a negative number: a digit follows, and no value precedes it. */
function negativeAllowed(tokens: Token[], next: string | undefined): boolean {
  const previous = tokens.at(-1);
  if (next === undefined || !/[0-9]/.test(next)) return false;
  if (previous === undefined) return true;
  if (previous.kind === 'op') return previous.text !== ')' && previous.text !== ']';
  return previous.kind === 'name' && PYTHON_NAMES.has(previous.text) && !LITERALS[previous.text];
}

/** Splits a condition into tokens; throws at a character outside the subset. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) i++;
    else if (char === "'" || char === '"') {
      const token = readString(text, i);
      tokens.push(token);
      i += token.text.length;
    } else if (/[0-9]/.test(char) || (char === '-' && negativeAllowed(tokens, text[i + 1]))) {
      const number = /^-?[0-9]+(\.[0-9]+)?/.exec(text.slice(i))![0];
      tokens.push({ kind: 'number', text: number, offset: i });
      i += number.length;
    } else if (/[A-Za-z_]/.test(char)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))![0];
      tokens.push({ kind: 'name', text: name, offset: i });
      i += name.length;
    } else {
      const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
      if (!op) throw new TranslationError(`the character "${char}"`, i);
      tokens.push({ kind: 'op', text: op, offset: i });
      i += op.length;
    }
  }
  tokens.push({ kind: 'end', text: '', offset: text.length });
  return tokens;
}

/**
 * Whether a condition is written in ADR-005's Python rather than CEL: it uses a name only Python
 * conditions use (`context`, `turn_count`, `and`, `or`, `not`, `True`, `False`, `None`, ...)
 * outside a string and not after a dot.
 */
export function isPythonCondition(expression: string): boolean {
  let tokens: Token[];
  try {
    tokens = tokenize(expression);
  } catch {
    // CEL's own operators (&&, ||, !) are outside the tokenizer's subset: test the names alone.
    return /(^|[^.\w'"])(context|turn_count|and|or|not|True|False|None)\b/.test(expression);
  }
  return tokens.some(
    (token, index) =>
      token.kind === 'name' && PYTHON_NAMES.has(token.text) && tokens[index - 1]?.text !== '.',
  );
}

/** A recursive-descent parser of the subset that emits CEL. */
class Translator {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly context: string,
  ) {}

  private get peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    return this.tokens[this.index++]!;
  }

  private expect(text: string): Token {
    const token = this.next();
    if (token.text !== text)
      throw new TranslationError(
        `"${token.text || 'the end'}" where "${text}" was expected`,
        token.offset,
      );
    return token;
  }

  translate(): string {
    const cel = this.or();
    if (this.peek.kind !== 'end')
      throw new TranslationError(
        `"${this.peek.text}" after a complete condition`,
        this.peek.offset,
      );
    return cel;
  }

  private or(): string {
    let cel = this.and();
    while (this.peek.text === 'or') {
      this.next();
      cel = `${cel} || ${this.and()}`;
    }
    return cel;
  }

  private and(): string {
    let cel = this.not();
    while (this.peek.text === 'and') {
      this.next();
      cel = `${cel} && ${this.not()}`;
    }
    return cel;
  }

  private not(): string {
    if (this.peek.text !== 'not') return this.comparison();
    this.next();
    return `!(${this.not()})`;
  }

  private comparison(): string {
    const left = this.operand();
    const token = this.peek;
    let op: string | undefined;
    if (['==', '!=', '<', '<=', '>', '>=', 'in'].includes(token.text)) op = this.next().text;
    else if (token.text === 'not' && this.tokens[this.index + 1]?.text === 'in') {
      this.index += 2;
      op = 'not in';
    } else if (token.text === 'is') {
      this.next();
      op = this.peek.text === 'not' ? (this.next(), '!=') : '==';
      const none = this.next();
      if (none.text !== 'None')
        throw new TranslationError('"is" with something other than None', none.offset);
      return `${left} ${op} null`;
    }
    if (op === undefined) return left;
    const right = this.operand();
    if (['==', '!=', '<', '<=', '>', '>=', 'in'].includes(this.peek.text))
      throw new TranslationError('a chained comparison', this.peek.offset);
    return op === 'not in' ? `!(${left} in ${right})` : `${left} ${op} ${right}`;
  }

  private operand(): string {
    const token = this.next();
    if (token.text === '(') {
      const inner = this.or();
      this.expect(')');
      return `(${inner})`;
    }
    if (token.kind === 'number') return token.text;
    if (token.kind === 'string') return JSON.stringify(token.value);
    if (token.kind === 'name' && LITERALS[token.text]) return LITERALS[token.text]!;
    if (token.text === 'turn_count') return 'turn';
    if (token.text === 'len') {
      this.expect('(');
      const inner = this.or();
      this.expect(')');
      return `size(${inner})`;
    }
    if (token.text === 'context') return this.access(this.context);
    if (token.text === '-' || (token.kind === 'op' && token.text !== '')) {
      throw new TranslationError(`"${token.text}" where a value was expected`, token.offset);
    }
    throw new TranslationError(
      token.kind === 'end' ? 'the end where a value was expected' : `the name "${token.text}"`,
      token.offset,
    );
  }

  /** `.get('k', default)` and `['k']` after `context` (or after one another). */
  private access(base: string): string {
    let cel = base;
    for (;;) {
      if (this.peek.text === '[') {
        this.next();
        const key = this.key();
        this.expect(']');
        cel = member(cel, key);
      } else if (this.peek.text === '.' && this.tokens[this.index + 1]?.text === 'get') {
        this.index += 2;
        this.expect('(');
        const key = this.key();
        let fallback = 'null';
        if (this.tokens[this.index]!.text === ',') {
          this.next();
          fallback = this.literal();
        }
        this.expect(')');
        const test = IDENTIFIER.test(key)
          ? `has(${cel}.${key})`
          : `${JSON.stringify(key)} in ${cel}`;
        cel = `(${test} ? ${member(cel, key)} : ${fallback})`;
      } else if (this.peek.text === '.') {
        const name = this.tokens[this.index + 1];
        throw new TranslationError(
          `the method ".${name?.text ?? ''}" (only .get(key, default) is translated)`,
          this.peek.offset,
        );
      } else return cel;
    }
  }

  private key(): string {
    const token = this.next();
    if (token.kind !== 'string')
      throw new TranslationError('a key that is not a quoted string', token.offset);
    return token.value!;
  }

  private literal(): string {
    const token = this.next();
    if (token.kind === 'number') return token.text;
    if (token.kind === 'string') return JSON.stringify(token.value);
    if (token.kind === 'name' && LITERALS[token.text]) return LITERALS[token.text]!;
    throw new TranslationError(
      'a default that is not True, False, None, a number or a string',
      token.offset,
    );
  }
}

const member = (cel: string, key: string): string =>
  IDENTIFIER.test(key) ? `${cel}.${key}` : `${cel}[${JSON.stringify(key)}]`;

/** A best-effort CEL rewrite of any condition, word by word, shown when translation fails. */
function suggest(expression: string, context: string): string {
  return expression
    .replace(
      /\bcontext\.get\(\s*(['"])(\w+)\1\s*(?:,\s*([^)]*?))?\s*\)/g,
      (_all, _q, key: string, fallback?: string) =>
        `(has(${context}.${key}) ? ${context}.${key} : ${suggestWords(fallback?.trim() || 'None')})`,
    )
    .replace(/\bcontext\[\s*(['"])(\w+)\1\s*\]/g, (_all, _q, key: string) => `${context}.${key}`)
    .replace(/\.get\(\s*(['"])(\w+)\1\s*(?:,[^)]*)?\)/g, (_all, _q, key: string) => `.${key}`)
    .replace(/\[\s*(['"])(\w+)\1\s*\]/g, (_all, _q, key: string) => `.${key}`)
    .replace(/\bcontext\b/g, context)
    .replace(/\bis not None\b/g, '!= null')
    .replace(/\bis None\b/g, '== null')
    .replace(/\blen\(/g, 'size(')
    .replace(/\bturn_count\b/g, 'turn')
    .replace(/\b(and|or|not|True|False|None)\b/g, (word) => suggestWords(word));
}

function suggestWords(word: string): string {
  return (
    (
      { and: '&&', or: '||', not: '!', True: 'true', False: 'false', None: 'null' } as Record<
        string,
        string
      >
    )[word] ?? word
  );
}

/**
 * Translates an ADR-005 Python condition to CEL; `context` is the CEL for Python's `context`
 * (in a dependency's condition, `outputs.<dependency>`).
 *
 * @example
 * ```ts
 * translatePythonCondition("context.get('needs_clarification', False)", 'outputs.llm_analyzer');
 * // { cel: '(has(outputs.llm_analyzer.needs_clarification) ? outputs.llm_analyzer.needs_clarification : false)' }
 * ```
 */
export function translatePythonCondition(expression: string, context: string): PythonTranslation {
  try {
    return { cel: new Translator(tokenize(expression), context).translate() };
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    return {
      problem: {
        offset: error.offset,
        suggestion: suggest(expression, context),
        message:
          `this Python condition uses ${error.message} (character ${error.offset + 1}), outside the subset ` +
          "Colloquy translates (context.get('key', default), context['key'], turn_count, len(), comparisons, " +
          'in, is None, and/or/not, True/False/None, numbers and strings). Write it in CEL instead, e.g.: ' +
          suggest(expression, context),
      },
    };
  }
}

/**
 * A dependency's condition as CEL: a Python condition translated (`context` is the dependency's
 * latest output), a CEL one unchanged. `translated` says which; a Python condition outside the
 * subset gives its problem.
 */
export function dependencyConditionAsCel(
  expression: string,
  dependency: string,
): { cel: string; translated: boolean } | { problem: { message: string; offset: number } } {
  if (!isPythonCondition(expression)) return { cel: expression, translated: false };
  const context = IDENTIFIER.test(dependency)
    ? `outputs.${dependency}`
    : `outputs[${JSON.stringify(dependency)}]`;
  const translation = translatePythonCondition(expression, context);
  return 'cel' in translation ? { cel: translation.cel, translated: true } : translation;
}
