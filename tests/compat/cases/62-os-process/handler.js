// Runtime introspection a Function might log or branch on (values vary: reported as facts).
const os = require('os');
const process = require('process');

module.exports = {
  main: function () {
    const mem = process.memoryUsage();
    const hr = process.hrtime.bigint();
    const [sec, nsec] = process.hrtime();
    return {
      os: {
        eol: JSON.stringify(os.EOL),
        platformType: typeof os.platform(),
        isLinux: os.platform() === 'linux',
        typeIsString: typeof os.type() === 'string',
        cpusIsArray: Array.isArray(os.cpus()),
        totalmemPositive: os.totalmem() > 0,
        hostnameIsString: typeof os.hostname() === 'string',
        tmpdirIsString: typeof os.tmpdir() === 'string',
        endianness: os.endianness(),
      },
      process: {
        platform: process.platform,
        versionLooksRight: /^v\d+\.\d+\.\d+$/.test(process.version),
        nodeMajorAtLeast20: Number(process.versions.node.split('.')[0]) >= 20,
        cwdIsAbsolute: process.cwd().startsWith('/'),
        pidIsNumber: Number.isInteger(process.pid),
        uptimeIsNumber: typeof process.uptime() === 'number',
        hrtimeBigint: typeof hr,
        hrtimeTuple: [typeof sec, typeof nsec],
        memoryKeys: ['rss', 'heapTotal', 'heapUsed'].every((k) => typeof mem[k] === 'number'),
        argvIsArray: Array.isArray(process.argv),
        execPathIsString: typeof process.execPath === 'string',
        envIsObject: typeof process.env === 'object',
        envFuncName: process.env.FUNC_NAME,
        envMissing: process.env.DEFINITELY_NOT_SET === undefined,
        exitCodeUndefined: process.exitCode === undefined,
        emitWarning: typeof process.emitWarning,
        nextTick: typeof process.nextTick,
        release: process.release.name,
        arch: typeof process.arch,
        tz: process.env.TZ || null,
        timezoneOffset: new Date(0).getTimezoneOffset(),
      },
    };
  },
};
