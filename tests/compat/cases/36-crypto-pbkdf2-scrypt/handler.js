// Password hashing with a fixed salt (so the result is checkable), sync and callback forms.
const crypto = require('crypto');
const { promisify } = require('util');

const pbkdf2 = promisify(crypto.pbkdf2);

module.exports = {
  main: async function (event) {
    const password = (event.data && event.data.password) || 'correct horse battery staple';
    const salt = Buffer.from('b1f3c2d4e5a69788', 'hex');
    const sync = crypto.pbkdf2Sync(password, salt, 1000, 32, 'sha256').toString('hex');
    const viaPromise = (await pbkdf2(password, salt, 1000, 32, 'sha256')).toString('hex');
    const viaCallback = await new Promise((resolve, reject) =>
      crypto.pbkdf2(password, 'pepper', 500, 16, 'sha512', (err, key) => (err ? reject(err) : resolve(key.toString('base64')))),
    );
    const scrypt = crypto.scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 }).toString('hex');
    const hkdf = Buffer.from(crypto.hkdfSync('sha256', 'input key', 'salt', 'info', 16)).toString('hex');
    return { sync, samePromise: viaPromise === sync, viaCallback, scrypt, hkdf };
  },
};
