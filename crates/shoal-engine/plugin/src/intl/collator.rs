//! `Intl.Collator` on ICU4X's collator (UCA with CLDR tailorings), with
//! ECMA-402's options mapped as V8 maps them onto ICU's attributes.

use icu_collator::options::{AlternateHandling, CaseLevel, CollatorOptions, Strength};
use icu_collator::{Collator, CollatorBorrowed, CollatorPreferences};
use icu_locale_core::Locale;
use std::cmp::Ordering;
use std::str::FromStr;

pub struct Options {
    /// The data locale with the `co`, `kn`, `kf` keywords that apply.
    pub locale: String,
    /// "base", "accent", "case" or "variant".
    pub sensitivity: String,
    pub ignore_punctuation: bool,
}

pub fn new(o: &Options) -> Option<CollatorBorrowed<'static>> {
    let locale = Locale::from_str(&o.locale).ok()?;
    let prefs = CollatorPreferences::from(&locale);
    let mut options = CollatorOptions::default();
    match o.sensitivity.as_str() {
        "base" => options.strength = Some(Strength::Primary),
        "accent" => options.strength = Some(Strength::Secondary),
        "case" => {
            options.strength = Some(Strength::Primary);
            options.case_level = Some(CaseLevel::On);
        }
        _ => options.strength = Some(Strength::Tertiary),
    }
    if o.ignore_punctuation {
        options.alternate_handling = Some(AlternateHandling::Shifted);
    }
    Collator::try_new(prefs, options).ok()
}

pub fn compare(c: &CollatorBorrowed<'static>, a: &str, b: &str) -> i32 {
    match c.compare(a, b) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}
