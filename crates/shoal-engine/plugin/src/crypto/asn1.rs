//! A small DER writer for the key structures Shoal emits, so the bytes are
//! exactly OpenSSL's (minimal integers, the same optional fields), and a
//! TLV reader for walking certificates. Parsing of key structures is the
//! `pkcs8`/`spki`/`pkcs1`/`sec1` crates'.

use der::asn1::ObjectIdentifier;

fn push_len(out: &mut Vec<u8>, len: usize) {
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
}

pub fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(content.len() + 6);
    out.push(tag);
    push_len(&mut out, content.len());
    out.extend_from_slice(content);
    out
}

pub fn seq(parts: &[&[u8]]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

/// A non-negative INTEGER from big-endian bytes.
pub fn uint(be: &[u8]) -> Vec<u8> {
    let start = be.iter().position(|&b| b != 0).unwrap_or(be.len());
    let digits = &be[start..];
    let mut content = Vec::with_capacity(digits.len() + 1);
    if digits.is_empty() || digits[0] & 0x80 != 0 {
        content.push(0);
    }
    content.extend_from_slice(digits);
    tlv(0x02, &content)
}

pub fn small_uint(v: u32) -> Vec<u8> {
    uint(&v.to_be_bytes())
}

pub fn oid(o: &ObjectIdentifier) -> Vec<u8> {
    tlv(0x06, o.as_bytes())
}

pub fn octets(b: &[u8]) -> Vec<u8> {
    tlv(0x04, b)
}

/// A BIT STRING with no unused bits.
pub fn bits(b: &[u8]) -> Vec<u8> {
    let mut content = Vec::with_capacity(b.len() + 1);
    content.push(0);
    content.extend_from_slice(b);
    tlv(0x03, &content)
}

pub fn null() -> Vec<u8> {
    vec![0x05, 0x00]
}

/// An explicitly tagged context-specific field (`[n] EXPLICIT`).
pub fn explicit(n: u8, inner: &[u8]) -> Vec<u8> {
    tlv(0xa0 | n, inner)
}

/// One TLV: its tag, its content, and the whole of it.
pub struct Tlv<'a> {
    pub tag: u8,
    pub content: &'a [u8],
    pub whole: &'a [u8],
}

pub fn read(input: &[u8]) -> Option<(Tlv<'_>, &[u8])> {
    let tag = *input.first()?;
    let first = *input.get(1)? as usize;
    let (len, header) = if first < 0x80 {
        (first, 2)
    } else {
        let n = first & 0x7f;
        if n == 0 || n > 4 {
            return None;
        }
        let mut len = 0usize;
        for i in 0..n {
            len = (len << 8) | *input.get(2 + i)? as usize;
        }
        (len, 2 + n)
    };
    let end = header.checked_add(len)?;
    let whole = input.get(..end)?;
    Some((
        Tlv {
            tag,
            content: &whole[header..],
            whole,
        },
        &input[end..],
    ))
}

/// The elements of a constructed value, in order.
pub fn children(content: &[u8]) -> Option<Vec<Tlv<'_>>> {
    let mut out = Vec::new();
    let mut rest = content;
    while !rest.is_empty() {
        let (tlv, next) = read(rest)?;
        out.push(tlv);
        rest = next;
    }
    Some(out)
}
