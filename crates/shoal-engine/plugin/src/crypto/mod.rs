//! Public-key cryptography behind `node:crypto`'s key API (KeyObject,
//! sign/verify, RSA encryption, ECDH, key generation) and Web Crypto, in
//! pure Rust (RustCrypto): RSA, ECDSA and ECDH on P-256, P-384 and P-521,
//! Ed25519, X25519, HKDF and AES key wrap, with keys in PKCS#8,
//! SPKI, PKCS#1, SEC1 (DER or PEM, encrypted or not) and JWK, and X.509
//! certificates.
//!
//! [`bindings`] puts the primitives on `__shoal_native`; the other modules
//! know nothing of JavaScript.

mod asn1;
mod bindings;
mod ec;
mod error;
mod foreign_curves;
mod hash;
mod kdf;
mod keys;
mod okp;
mod openssl_der;
mod ops;
mod pem;
mod rng;
mod rsa;
mod x509;

pub use bindings::install;
