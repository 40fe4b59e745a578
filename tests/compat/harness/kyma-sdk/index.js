'use strict';
// The `sdk` module a nodejs26 Function imports (`import { getCloudEvent } from 'sdk'` or
// `require('sdk')`), behaving like Kyma's components/runtimes/nodejs26/sdk/index.js.
// server26.mjs loads this very file and calls configure() before the Function is
// imported; the Function's `sdk` resolves to the same file (a resolve hook, unless the
// Function has its own `sdk` package), so both share one module instance and one state.
//
// CommonJS on purpose, with the exports listed in one object literal: Node's export lexer
// finds the names, so named ESM imports work as they do in Kyma.

const { HTTP, CloudEvent } = require('cloudevents');
const axios = require('axios');

// Kyma's defaults until the runtime configures the module.
const state = {
  tracer: null,
  publisherProxyAddress: null,
  functionName: '',
  namespace: '',
  runtime: '',
  timeout: 180,
  bodySizeLimit: 1,
};

/** Called once by the runtime with what it read from the environment. */
function configure(tracer, publisherProxyAddress, functionName, namespace, runtime, timeout, bodySizeLimit) {
  Object.assign(state, { tracer, publisherProxyAddress, functionName, namespace, runtime, timeout, bodySizeLimit });
}

/** The OpenTelemetry tracer the runtime set up (scope "io.kyma-project.serverless"). */
function getTracer() {
  return state.tracer;
}

/**
 * The request as a CloudEvent: structured mode (Content-Type application/cloudevents+json)
 * or binary mode (both ce-type and ce-source headers); null for any other request and for
 * one the cloudevents SDK rejects.
 */
function getCloudEvent(req) {
  const structured = req.is('application/cloudevents+json');
  const binary = req.get('ce-type') && req.get('ce-source');
  if (!structured && !binary) return null;
  try {
    return HTTP.toEvent({ headers: req.headers, body: req.body });
  } catch {
    return null;
  }
}

/**
 * Builds a CloudEvent and POSTs it in structured mode to the publisher proxy
 * (PUBLISHER_PROXY_ADDRESS). datacontenttype defaults to application/json for objects
 * (null included) and text/plain for anything else. Resolves to the axios response.
 */
function emitCloudEvent(type, source, data, optionalAttributes) {
  const attributes = { type, source, ...(optionalAttributes || {}) };
  if (!attributes.datacontenttype) {
    attributes.datacontenttype = typeof data === 'object' ? 'application/json' : 'text/plain';
  }
  attributes.data = data;
  const { headers, body } = HTTP.structured(new CloudEvent(attributes));
  return axios.post(state.publisherProxyAddress, body, { headers });
}

function getFunctionName() {
  return state.functionName;
}

function getNamespace() {
  return state.namespace;
}

function getRuntime() {
  return state.runtime;
}

function getTimeout() {
  return state.timeout;
}

function getBodySizeLimit() {
  return state.bodySizeLimit;
}

module.exports = {
  configure,
  getTracer,
  getCloudEvent,
  emitCloudEvent,
  getFunctionName,
  getNamespace,
  getRuntime,
  getTimeout,
  getBodySizeLimit,
};
