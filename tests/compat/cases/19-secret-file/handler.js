// secretMounts: the Secret's keys are files in a mounted directory.
const fs = require('fs');
const path = require('path');

module.exports = {
  main: function (event) {
    const dir = process.env.SECRET_DIR;
    const token = fs.readFileSync(dir + '/token', 'utf8').trim();
    const files = fs.readdirSync(dir).sort();
    const auth = event.extensions.request.get('authorization') || '';
    const authorized = auth === `Bearer ${token}`;
    if (!authorized) {
      event.setResponseStatus(401);
      return { authorized, files };
    }
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
    return {
      authorized,
      files,
      tokenLength: token.length,
      config,
      exists: fs.existsSync(path.join(dir, 'missing')),
    };
  },
};
