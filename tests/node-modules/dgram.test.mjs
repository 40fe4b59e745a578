// node:dgram: a Function cannot open UDP sockets.
import { refusal } from './harness/cases.mjs';

refusal('dgram', 'M.dgram.createSocket("udp4")', 'ERR_METHOD_NOT_IMPLEMENTED', 'dgram.createSocket() is not available in Shoal: a Function cannot open UDP sockets');
