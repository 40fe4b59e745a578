// Modern JavaScript a Function might use: classes, private fields, generators, regex, JSON, dates.
class Money {
  #cents;
  static currency = 'EUR';
  constructor(amount) {
    this.#cents = Math.round(amount * 100);
  }
  add(other) {
    return new Money((this.#cents + other.#cents) / 100);
  }
  get value() {
    return this.#cents / 100;
  }
  toJSON() {
    return `${(this.#cents / 100).toFixed(2)} ${Money.currency}`;
  }
  static #instances = 0;
}

function* paginate(items, size) {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

async function* ticker(n) {
  for (let i = 0; i < n; i++) yield i * i;
}

module.exports = {
  main: async function (event) {
    const data = event.data || { text: 'Order #A-17 shipped on 2024-03-05 to user@example.com; order #B-2 on 2024-03-06' };
    const re = /#(?<code>[A-Z]-\d+) \w+ on (?<date>\d{4}-\d{2}-\d{2})/g;
    const matches = [...data.text.matchAll(re)].map((m) => ({ code: m.groups.code, date: m.groups.date, index: m.index }));
    const squares = [];
    for await (const s of ticker(4)) squares.push(s);
    const d = new Date('2024-03-05T14:07:09.123Z');
    const { a = 1, ...rest } = { b: 2, c: 3 };
    const arr = [5, 1, 4, 2, 3];
    return {
      money: new Money(0.1).add(new Money(0.2)),
      moneyValue: new Money(19.999).value,
      floating: 0.1 + 0.2,
      pages: [...paginate([1, 2, 3, 4, 5], 2)],
      squares,
      matches,
      replaced: data.text.replaceAll(/\d{4}-\d{2}-\d{2}/g, (m) => m.split('-').reverse().join('.')),
      lookbehind: '$12.50 and €7'.match(/(?<=\$)\d+(\.\d+)?/)[0],
      sticky: /foo/y.sticky,
      unicodeRegex: /\p{Script=Greek}+/u.exec('abc αβγ def')[0],
      dates: {
        iso: d.toISOString(),
        utcString: d.toUTCString(),
        json: JSON.stringify({ d }),
        parsed: Date.parse('2024-03-05'),
        local: d.toString(),
        dateString: d.toDateString(),
        getDay: d.getDay(),
        invalid: String(new Date('nope')),
        epoch: new Date(0).toISOString(),
      },
      json: {
        pretty: JSON.stringify({ b: [1, { c: null }], a: 'x' }, null, 2),
        replacer: JSON.stringify({ keep: 1, drop: 2, nested: { keep: 3 } }, ['keep', 'nested']),
        reviver: JSON.parse('{"when":"2024-01-01T00:00:00.000Z","n":"5"}', (k, v) => (k === 'n' ? Number(v) : v)),
        specials: JSON.stringify([NaN, Infinity, -0, undefined, () => 1, new Map([[1, 2]])]),
        unicode: JSON.stringify('\u2028\u2029 é \ud800'),
        loneSurrogateInObject: JSON.stringify({ s: 'x\udfff', keep: '\ufffd' }),
        parsedSurrogate: JSON.parse('"\\udc00x"').charCodeAt(0),
      },
      numbers: {
        toFixed: (1.005).toFixed(2),
        toPrecision: (123.456).toPrecision(4),
        exp: (0.00000123).toString(),
        big: (2 ** 53 + 1).toString(),
        bigint: (2n ** 64n).toString(),
        parseInt: [parseInt('08'), parseInt('0x1f'), parseFloat('3.14abc'), Number(''), Number('12px')],
        intl: Number.MAX_SAFE_INTEGER,
        maxValueStr: String(Number.MAX_VALUE),
        minValueStr: String(Number.MIN_VALUE),
        radix: (255).toString(2) + ' ' + (255).toString(36),
      },
      arrays: {
        sortedNumbers: [...arr].sort(),
        sortedDesc: [...arr].sort((x, y) => y - x),
        toSorted: typeof arr.toSorted === 'function' ? arr.toSorted() : 'missing',
        at: arr.at(-1),
        findLast: arr.findLast((x) => x > 3),
        flat: [1, [2, [3, [4]]]].flat(Infinity),
        fromEntries: Object.fromEntries([['x', 1], ['y', 2]]),
        hasOwn: Object.hasOwn({ z: 1 }, 'z'),
        stableSort: [{ k: 1, v: 'a' }, { k: 0, v: 'b' }, { k: 1, v: 'c' }].sort((p, q) => p.k - q.k).map((o) => o.v).join(''),
      },
      strings: {
        pad: 'x'.padStart(4, 'ab') + '|' + 'x'.padEnd(3, '-'),
        normalize: ['é'.normalize('NFD').length, 'e\u0301'.normalize('NFC').length],
        emojiLength: '👍🏽'.length,
        codePoints: [...'a😀b'].length,
        localeUpper: 'istanbul'.toLocaleUpperCase('tr-TR'),
        localeLower: 'DİYARBAKIR Istanbul'.toLocaleLowerCase('tr-TR') + ' ' + 'TITLE'.toLocaleLowerCase('en-US'),
        upperSharpS: 'straße'.toUpperCase(),
        trim: '\u00a0 x \n'.trim(),
        raw: String.raw`a\nb${1 + 1}`,
        isWellFormed: typeof ''.isWellFormed === 'function' ? 'ab\ud800'.isWellFormed() : 'missing',
      },
      destructuring: { a, rest },
      optional: { chain: data?.missing?.deep ?? 'fallback', nullish: 0 ?? 'x', logicalAssign: (() => { let v = null; v ??= 5; return v; })() },
      symbols: { description: Symbol('tag').description, iteratorType: typeof [][Symbol.iterator] },
      errorCause: new Error('outer', { cause: new Error('inner') }).cause.message,
      aggregate: new AggregateError([new Error('x')], 'many').errors.length,
      proxy: new Proxy({}, { get: (t, k) => `prop:${String(k)}` }).anything,
      reflect: Reflect.ownKeys({ b: 1, a: 2, 1: 3, [Symbol.for('s')]: 4 }).map(String),
      getterOrder: Object.keys({ z: 1, 10: 'n', 2: 'm', a: 0 }),
    };
  },
};
