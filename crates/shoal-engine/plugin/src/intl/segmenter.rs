//! `Intl.Segmenter` on ICU4X's UAX #29 segmenters, with dictionaries for
//! Chinese, Japanese and the South East Asian scripts as ICU has them.

use icu_segmenter::options::WordBreakInvariantOptions;
use icu_segmenter::{GraphemeClusterSegmenter, SentenceSegmenter, WordSegmenter};

/// Break positions (UTF-16 offsets) after the start, and for words whether
/// the segment ending there is word-like.
pub fn segment(granularity: &str, text: &[u16]) -> (Vec<usize>, Vec<bool>) {
    let mut breaks = Vec::new();
    let mut word_like = Vec::new();
    match granularity {
        "word" => {
            let seg = WordSegmenter::new_dictionary(WordBreakInvariantOptions::default());
            let mut it = seg.segment_utf16(text);
            while let Some(b) = it.next() {
                if b == 0 {
                    continue;
                }
                breaks.push(b);
                word_like.push(it.is_word_like());
            }
        }
        "sentence" => {
            let seg = SentenceSegmenter::new(Default::default());
            breaks.extend(seg.segment_utf16(text).filter(|&b| b > 0));
        }
        _ => {
            let seg = GraphemeClusterSegmenter::new();
            breaks.extend(seg.segment_utf16(text).filter(|&b| b > 0));
        }
    }
    (breaks, word_like)
}
