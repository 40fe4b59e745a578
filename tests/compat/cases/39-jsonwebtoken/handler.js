// Issuing and checking JWTs with a shared secret.
const jwt = require('jsonwebtoken');

const SECRET = process.env.JWT_SECRET;
const IAT = 1700000000; // fixed issue time so the token is reproducible

module.exports = {
  main: function (event) {
    const action = event.extensions.request.query.action || 'issue';
    if (action === 'issue') {
      const user = event.data || {};
      const token = jwt.sign({ sub: user.id, roles: user.roles, iat: IAT }, SECRET, {
        algorithm: 'HS256',
        expiresIn: '1h',
        issuer: 'shop-auth',
        audience: 'shop-api',
      });
      return { token, decoded: jwt.decode(token, { complete: true }) };
    }
    const auth = event.extensions.request.get('authorization') || '';
    const token = auth.replace(/^Bearer /, '');
    try {
      const claims = jwt.verify(token, SECRET, { audience: 'shop-api', issuer: 'shop-auth', clockTimestamp: IAT + 60 });
      let later;
      try {
        jwt.verify(token, SECRET, { clockTimestamp: IAT + 7200 });
      } catch (e) {
        later = { name: e.name, message: e.message, expiredAt: e.expiredAt };
      }
      let wrongAudience;
      try {
        jwt.verify(token, SECRET, { audience: 'admin-api', clockTimestamp: IAT + 60 });
      } catch (e) {
        wrongAudience = { name: e.name, message: e.message };
      }
      return { valid: true, sub: claims.sub, roles: claims.roles, exp: claims.exp, later, wrongAudience };
    } catch (err) {
      event.setResponseStatus(401);
      return { valid: false, name: err.name, message: err.message };
    }
  },
};
