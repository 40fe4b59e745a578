//! Native AES (CBC, CTR, GCM) and scrypt behind `node:crypto`'s
//! `createCipheriv`/`createDecipheriv` and `scrypt(Sync)`.
//!
//! The functions are stateless: the JavaScript `Cipher` keeps the chaining
//! state (CBC's last block, the CTR/GCM keystream position, GCM's AAD and
//! the data for the tag) and calls in with it, so nothing here outlives a
//! call. Bad input throws a JavaScript `Error`; nothing traps.

use aes::cipher::{Array, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit, StreamCipher, StreamCipherSeek};
use aes::{Aes128, Aes192, Aes256};
use aes_gcm::AesGcm;
use aes_gcm::aead::AeadInOut;
use javy_plugin_api::javy::quickjs::{
    ArrayBuffer, Ctx, Function, Object, Result as JsResult, TypedArray, function::Opt,
};

use crate::native::{buffer, bytes, throw};

type Block = Array<u8, aes::cipher::consts::U16>;

/// `aesCbc(key, iv, data, decrypt)`: whole blocks, no padding (the caller
/// pads and unpads).
fn aes_cbc<'js>(
    ctx: Ctx<'js>,
    key: TypedArray<'js, u8>,
    iv: TypedArray<'js, u8>,
    data: TypedArray<'js, u8>,
    decrypt: bool,
) -> JsResult<ArrayBuffer<'js>> {
    let key = bytes(&ctx, &key, "cipher key")?;
    let iv = bytes(&ctx, &iv, "cipher iv")?;
    let mut out = bytes(&ctx, &data, "cipher data")?.to_vec();
    if out.len() % 16 != 0 {
        return Err(throw(&ctx, "aesCbc: data must be whole 16-byte blocks"));
    }
    let (blocks, _) = Block::slice_as_chunks_mut(&mut out);
    macro_rules! run {
        ($aes:ty) => {{
            if decrypt {
                let mut c = cbc::Decryptor::<$aes>::new_from_slices(key, iv)
                    .map_err(|_| throw(&ctx, "Invalid initialization vector"))?;
                c.decrypt_blocks(blocks);
            } else {
                let mut c = cbc::Encryptor::<$aes>::new_from_slices(key, iv)
                    .map_err(|_| throw(&ctx, "Invalid initialization vector"))?;
                c.encrypt_blocks(blocks);
            }
        }};
    }
    match key.len() {
        16 => run!(Aes128),
        24 => run!(Aes192),
        32 => run!(Aes256),
        _ => return Err(throw(&ctx, "Invalid key length")),
    }
    buffer(&ctx, out)
}

/// `aesCtr(key, counterBlock, offset, data, counter32)`: the keystream from
/// `counterBlock` (a 128-bit big-endian counter, or GCM's 32-bit one), from
/// byte `offset` on, XORed into `data`.
fn aes_ctr<'js>(
    ctx: Ctx<'js>,
    key: TypedArray<'js, u8>,
    counter: TypedArray<'js, u8>,
    offset: f64,
    data: TypedArray<'js, u8>,
    counter32: bool,
) -> JsResult<ArrayBuffer<'js>> {
    let key = bytes(&ctx, &key, "cipher key")?;
    let counter = bytes(&ctx, &counter, "cipher iv")?;
    let mut out = bytes(&ctx, &data, "cipher data")?.to_vec();
    if !(0.0..=(u64::MAX as f64)).contains(&offset) || offset.fract() != 0.0 {
        return Err(throw(&ctx, "aesCtr: bad offset"));
    }
    let offset = offset as u64;
    macro_rules! run {
        ($mode:ty) => {{
            let mut c =
                <$mode>::new_from_slices(key, counter).map_err(|_| throw(&ctx, "Invalid initialization vector"))?;
            c.try_seek(offset)
                .map_err(|_| throw(&ctx, "aesCtr: past the end of the keystream"))?;
            c.try_apply_keystream(&mut out)
                .map_err(|_| throw(&ctx, "aesCtr: past the end of the keystream"))?;
        }};
    }
    match (key.len(), counter32) {
        (16, false) => run!(ctr::Ctr128BE<Aes128>),
        (24, false) => run!(ctr::Ctr128BE<Aes192>),
        (32, false) => run!(ctr::Ctr128BE<Aes256>),
        (16, true) => run!(ctr::Ctr32BE<Aes128>),
        (24, true) => run!(ctr::Ctr32BE<Aes192>),
        (32, true) => run!(ctr::Ctr32BE<Aes256>),
        _ => return Err(throw(&ctx, "Invalid key length")),
    }
    buffer(&ctx, out)
}

/// `aesGcm(key, iv, aad, data, tag?)`: with no tag, encrypts `data` and
/// returns the 16-byte tag; with one, decrypts `data` checking it and
/// returns the plaintext, or throws Node's "unable to authenticate".
fn aes_gcm<'js>(
    ctx: Ctx<'js>,
    key: TypedArray<'js, u8>,
    iv: TypedArray<'js, u8>,
    aad: TypedArray<'js, u8>,
    data: TypedArray<'js, u8>,
    tag: Opt<TypedArray<'js, u8>>,
) -> JsResult<ArrayBuffer<'js>> {
    let key = bytes(&ctx, &key, "cipher key")?;
    let iv = bytes(&ctx, &iv, "cipher iv")?;
    let aad = bytes(&ctx, &aad, "cipher aad")?;
    let mut data = bytes(&ctx, &data, "cipher data")?.to_vec();
    let tag = match &tag.0 {
        Some(t) => Some(bytes(&ctx, t, "auth tag")?.to_vec()),
        None => None,
    };
    if iv.len() != 12 {
        return Err(throw(
            &ctx,
            "Shoal's AES-GCM takes 12-byte IVs (as the GCM specification recommends)",
        ));
    }
    let nonce: &Array<u8, aes::cipher::consts::U12> = iv
        .try_into()
        .map_err(|_| throw(&ctx, "Invalid initialization vector"))?;
    macro_rules! run {
        ($aes:ty) => {{
            let cipher = AesGcm::<$aes, aes::cipher::consts::U12>::new_from_slice(key)
                .map_err(|_| throw(&ctx, "Invalid key length"))?;
            match &tag {
                None => {
                    let tag = cipher
                        .encrypt_inout_detached(nonce, aad, data.as_mut_slice().into())
                        .map_err(|_| throw(&ctx, "aesGcm: the data is too long"))?;
                    tag.to_vec()
                }
                Some(tag) => {
                    let tag: &Array<u8, aes::cipher::consts::U16> = tag
                        .as_slice()
                        .try_into()
                        .map_err(|_| throw(&ctx, "Unsupported state or unable to authenticate data"))?;
                    cipher
                        .decrypt_inout_detached(nonce, aad, data.as_mut_slice().into(), tag)
                        .map_err(|_| throw(&ctx, "Unsupported state or unable to authenticate data"))?;
                    data
                }
            }
        }};
    }
    let out = match key.len() {
        16 => run!(Aes128),
        24 => run!(Aes192),
        32 => run!(Aes256),
        _ => return Err(throw(&ctx, "Invalid key length")),
    };
    buffer(&ctx, out)
}

/// `scrypt(password, salt, N, r, p, keylen)`.
fn scrypt<'js>(
    ctx: Ctx<'js>,
    password: TypedArray<'js, u8>,
    salt: TypedArray<'js, u8>,
    cost: f64,
    block_size: f64,
    parallelization: f64,
    length: f64,
) -> JsResult<ArrayBuffer<'js>> {
    let password = bytes(&ctx, &password, "scrypt password")?;
    let salt = bytes(&ctx, &salt, "scrypt salt")?;
    let whole = |v: f64| v >= 1.0 && v.fract() == 0.0 && v <= u32::MAX as f64;
    if !whole(cost) || (cost as u64).count_ones() != 1 || cost < 2.0 {
        return Err(throw(
            &ctx,
            "Invalid scrypt params: N must be a power of two greater than 1",
        ));
    }
    if !whole(block_size) || !whole(parallelization) || !(0.0..=(1u64 << 30) as f64).contains(&length) {
        return Err(throw(&ctx, "Invalid scrypt params"));
    }
    let log_n = (cost as u64).trailing_zeros() as u8;
    let params = scrypt::Params::new(log_n, block_size as u32, parallelization as u32)
        .map_err(|e| throw(&ctx, format!("Invalid scrypt params: {e}")))?;
    let mut out = vec![0u8; length as usize];
    scrypt::scrypt(password, salt, &params, &mut out).map_err(|e| throw(&ctx, format!("scrypt: {e}")))?;
    buffer(&ctx, out)
}

/// Adds the cipher functions to `native`.
pub fn install<'js>(ctx: &Ctx<'js>, native: &Object<'js>) -> JsResult<()> {
    native.set("aesCbc", Function::new(ctx.clone(), aes_cbc)?)?;
    native.set("aesCtr", Function::new(ctx.clone(), aes_ctr)?)?;
    native.set("aesGcm", Function::new(ctx.clone(), aes_gcm)?)?;
    native.set("scrypt", Function::new(ctx.clone(), scrypt)?)?;
    Ok(())
}
