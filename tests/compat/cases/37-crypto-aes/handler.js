// Encrypting a field with AES-256-GCM and AES-256-CBC using a key from env (fixed IV here).
const crypto = require('crypto');

module.exports = {
  main: function (event) {
    const key = crypto.createHash('sha256').update(process.env.ENC_KEY).digest();
    const iv = Buffer.alloc(12, 7);
    const plaintext = (event.data && event.data.iban) || 'DE89370400440532013000';

    const gcm = crypto.createCipheriv('aes-256-gcm', key, iv);
    gcm.setAAD(Buffer.from('customer-42'));
    const encrypted = Buffer.concat([gcm.update(plaintext, 'utf8'), gcm.final()]);
    const tag = gcm.getAuthTag();

    const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from('customer-42'));
    decipher.setAuthTag(tag);
    const decrypted = Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('utf8');

    const cbcIv = Buffer.alloc(16, 1);
    const cbc = crypto.createCipheriv('aes-256-cbc', key, cbcIv);
    let cbcHex = cbc.update(plaintext, 'utf8', 'hex');
    cbcHex += cbc.final('hex');
    const cbcDec = crypto.createDecipheriv('aes-256-cbc', key, cbcIv);
    const cbcPlain = cbcDec.update(cbcHex, 'hex', 'utf8') + cbcDec.final('utf8');

    let tamper;
    try {
      const bad = crypto.createDecipheriv('aes-256-gcm', key, iv);
      bad.setAAD(Buffer.from('customer-43'));
      bad.setAuthTag(tag);
      bad.update(encrypted);
      bad.final();
      tamper = 'accepted';
    } catch (err) {
      tamper = err.message;
    }
    return {
      gcm: { ciphertext: encrypted.toString('base64'), tag: tag.toString('hex') },
      decrypted,
      cbc: cbcHex,
      cbcPlain,
      tamper,
      ciphersIncludeGcm: crypto.getCiphers().includes('aes-256-gcm'),
    };
  },
};
