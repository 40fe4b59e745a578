'use strict';
// Intl.Segmenter on ICU4X's segmenters: UAX #29 graphemes, words and
// sentences, with dictionaries for Chinese, Japanese, Thai, Lao, Khmer and
// Burmese words as ICU has them.

const { intlNative } = require('./native');
const { receiverText, unwrap, getOptionsObject, getStringOption, defineMethods, setToStringTag } = require('./options');
const { canonicalizeLocaleList, supportedLocalesOf, resolveLocale } = require('./locales');

const SERVICE = 'Intl.Segmenter';
const slots = new WeakMap();

function Segmenter(locales, options) {
  if (new.target === undefined) throw new TypeError("Constructor Intl.Segmenter requires 'new'");
  const requested = canonicalizeLocaleList(locales);
  const opts = getOptionsObject(options);
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', SERVICE);
  const r = resolveLocale('Segmenter', requested, [], {});
  const granularity = getStringOption(opts, 'granularity', ['grapheme', 'word', 'sentence'], 'grapheme', SERVICE);
  const proto = typeof new.target.prototype === 'object' && new.target.prototype !== null ? new.target.prototype : Segmenter.prototype;
  const seg = Object.create(proto);
  slots.set(seg, { locale: r.locale, granularity });
  return seg;
}

defineMethods(Segmenter.prototype, {
  resolvedOptions() {
    const s = unwrap(slots, this, 'Intl.Segmenter.prototype.resolvedOptions');
    return { locale: s.locale, granularity: s.granularity };
  },
  segment(string) {
    const s = unwrap(slots, this, 'Intl.Segmenter.prototype.segment');
    if (typeof string === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
    const segments = Object.create(SegmentsPrototype);
    segmentsState.set(segments, { granularity: s.granularity, input: String(string), result: null });
    return segments;
  },
});
defineMethods(Segmenter, {
  supportedLocalesOf(locales, options) {
    return supportedLocalesOf('Segmenter', locales, options);
  },
});
setToStringTag(Segmenter.prototype, 'Intl.Segmenter');
Object.defineProperty(Segmenter, 'length', { value: 0 });

const segmentsState = new WeakMap();
const segmentIteratorState = new WeakMap();

// Break offsets (0 first, the length last) and, for words, word-likeness.
function segmentsOf(state) {
  if (!state.result) {
    const flat = intlNative().segment(state.granularity, state.input);
    const breaks = [0];
    const wordLike = state.granularity === 'word' ? [] : null;
    for (let i = 0; i < flat.length; i += 2) {
      breaks.push(flat[i]);
      if (wordLike) wordLike.push(flat[i + 1] === 1);
    }
    state.result = { breaks, wordLike };
  }
  return state.result;
}

function segmentData(state, k) {
  const { breaks, wordLike } = segmentsOf(state);
  const out = { segment: state.input.slice(breaks[k], breaks[k + 1]), index: breaks[k], input: state.input };
  if (wordLike) out.isWordLike = wordLike[k];
  return out;
}

const SegmentsPrototype = {};
defineMethods(SegmentsPrototype, {
  containing(index) {
    const state = segmentsState.get(this);
    if (!state) throw new TypeError(`Method %Segments.prototype%.containing called on incompatible receiver ${receiverText(this)}`);
    let n = Number(index);
    n = Number.isNaN(n) ? 0 : Math.trunc(n);
    if (n < 0 || n >= state.input.length) return undefined;
    const { breaks } = segmentsOf(state);
    let lo = 0;
    let hi = breaks.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (breaks[mid] <= n) lo = mid;
      else hi = mid - 1;
    }
    return segmentData(state, lo);
  },
  [Symbol.iterator]() {
    const state = segmentsState.get(this);
    if (!state) throw new TypeError(`Method %Segments.prototype%[@@iterator] called on incompatible receiver ${receiverText(this)}`);
    const it = Object.create(SegmentIteratorPrototype);
    segmentIteratorState.set(it, { state, k: 0 });
    return it;
  },
});

const SegmentIteratorPrototype = Object.create(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
defineMethods(SegmentIteratorPrototype, {
  next() {
    const it = segmentIteratorState.get(this);
    if (!it) throw new TypeError(`Method %SegmentIterator.prototype%.next called on incompatible receiver ${receiverText(this)}`);
    const { breaks } = segmentsOf(it.state);
    if (it.k + 1 >= breaks.length) return { value: undefined, done: true };
    return { value: segmentData(it.state, it.k++), done: false };
  },
});
setToStringTag(SegmentIteratorPrototype, 'Segmenter String Iterator');

module.exports = { Segmenter };
