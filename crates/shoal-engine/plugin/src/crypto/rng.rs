//! Randomness for key generation, blinding, salts and nonces: the host's
//! CSPRNG (WASI `random_get`).

use std::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};

use super::error::{CryptoError, Result};

/// The RustCrypto crates want an infallible RNG. If the host ever fails to
/// give randomness this fills zeros and remembers it, and [`HostRng::check`]
/// turns the whole operation into an error, so nothing made with the zeros
/// leaves the engine.
#[derive(Default)]
pub struct HostRng {
    failed: bool,
}

impl HostRng {
    /// Gives `value` back, or an error if the host failed to give randomness
    /// while it was computed.
    pub fn check<T>(&self, value: T) -> Result<T> {
        if self.failed {
            Err(CryptoError::randomness())
        } else {
            Ok(value)
        }
    }
}

impl TryRng for HostRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> std::result::Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> std::result::Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> std::result::Result<(), Infallible> {
        if getrandom::fill(dst).is_err() {
            dst.fill(0);
            self.failed = true;
        }
        Ok(())
    }
}

impl TryCryptoRng for HostRng {}

/// `n` random bytes, or an error.
pub fn random_vec(n: usize) -> Result<Vec<u8>> {
    let mut out = vec![0u8; n];
    getrandom::fill(&mut out).map_err(|_| CryptoError::randomness())?;
    Ok(out)
}
