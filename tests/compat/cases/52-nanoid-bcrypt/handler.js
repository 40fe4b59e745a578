// Short ids with nanoid and password hashes with bcryptjs.
const { nanoid, customAlphabet } = require('nanoid');
const bcrypt = require('bcryptjs');

// bcrypt hash of "s3cret-passw0rd" with cost 8, made once and stored with the user.
const STORED_HASH = '$2b$08$Lc4tVZyTbQu/WMCQonfwqe9EwknE7b57nNIN2ZiI2ttE1Lt7Bnc76';
const orderCode = customAlphabet('0123456789ABCDEFGHJKLMNPQRSTUVWXYZ', 10);

module.exports = {
  main: async function (event) {
    const mode = event.extensions.request.query.mode;
    if (mode === 'login') {
      const password = (event.data && event.data.password) || '';
      const ok = await bcrypt.compare(password, STORED_HASH);
      const okSync = bcrypt.compareSync(password, STORED_HASH);
      if (!ok) event.setResponseStatus(401);
      return { ok, okSync, rounds: bcrypt.getRounds(STORED_HASH), salt: bcrypt.getSalt(STORED_HASH) };
    }
    const hash = await bcrypt.hash('new-user-password', 8);
    return {
      id: nanoid(),
      shortId: nanoid(8),
      orderCode: orderCode(),
      hash,
      hashVerifies: await bcrypt.compare('new-user-password', hash),
      hashFormat: /^\$2[aby]\$08\$[./A-Za-z0-9]{53}$/.test(hash),
    };
  },
};
