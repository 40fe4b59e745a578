// npm packages as they load and work in Kyma's pod, where node_modules is on
// disk: figlet reads its fonts next to its own code, packages resolve their
// own files, fs has Node 24's API (fs-extra copies it), old CommonJS code
// relies on sloppy mode (expect.js), color libraries ask the terminal.
const fs = require('fs');
const path = require('path');
const fse = require('fs-extra');
const figlet = require('figlet');
const expect = require('expect.js');
const http = require('http');
const tty = require('tty');

module.exports = {
  main: () => {
    let assertion;
    try {
      expect(1).to.equal(2);
    } catch (e) {
      assertion = e.message;
    }
    // figlet's "exports" has no ./package.json: found next to its entry.
    let notExported;
    try {
      require.resolve('figlet/package.json');
    } catch (e) {
      notExported = [e.code, e.message.slice(0, e.message.indexOf(' in '))];
    }
    const entry = require.resolve('figlet');
    const manifest = path.join(path.dirname(entry), '..', 'package.json');
    return {
      banner: figlet.textSync('Shoal'),
      font: figlet.textSync('ok', { font: 'Small' }),
      entry: entry.slice(entry.indexOf('node_modules')),
      notExported,
      version: JSON.parse(fs.readFileSync(manifest, 'utf8')).version,
      assertion,
      fsKeys: ['Dir', 'opendir', 'glob', 'globSync', 'readlink', 'statfs', 'openAsBlob', 'readvSync', 'F_OK'].map((k) => [k, Object.keys(fs).includes(k), typeof fs[k]]),
      fsExtra: ['copy', 'outputJson', 'pathExists', 'readJson', 'glob', 'F_OK'].map((k) => [k, typeof fse[k]]),
      methods: [http.METHODS.length, http.METHODS.includes('PROPFIND')],
      colors: [tty.WriteStream.prototype.hasColors({}), tty.WriteStream.prototype.getColorDepth({ TERM: 'xterm-256color' }), tty.WriteStream.prototype.hasColors(256, { COLORTERM: 'truecolor' })],
      stdout: [typeof process.stdout.write, process.stdout.fd, process.stderr.fd, process.stdout.write('')],
    };
  },
};
