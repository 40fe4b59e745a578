'use strict';
// WHATWG DOMException (WebIDL): a real Error subclass, as in Node.js.

const legacyCodes = {
  IndexSizeError: 1,
  DOMStringSizeError: 2,
  HierarchyRequestError: 3,
  WrongDocumentError: 4,
  InvalidCharacterError: 5,
  NoDataAllowedError: 6,
  NoModificationAllowedError: 7,
  NotFoundError: 8,
  NotSupportedError: 9,
  InUseAttributeError: 10,
  InvalidStateError: 11,
  SyntaxError: 12,
  InvalidModificationError: 13,
  NamespaceError: 14,
  InvalidAccessError: 15,
  ValidationError: 16,
  TypeMismatchError: 17,
  SecurityError: 18,
  NetworkError: 19,
  AbortError: 20,
  URLMismatchError: 21,
  QuotaExceededError: 22,
  TimeoutError: 23,
  InvalidNodeTypeError: 24,
  DataCloneError: 25,
};

const constantNames = {
  INDEX_SIZE_ERR: 1,
  DOMSTRING_SIZE_ERR: 2,
  HIERARCHY_REQUEST_ERR: 3,
  WRONG_DOCUMENT_ERR: 4,
  INVALID_CHARACTER_ERR: 5,
  NO_DATA_ALLOWED_ERR: 6,
  NO_MODIFICATION_ALLOWED_ERR: 7,
  NOT_FOUND_ERR: 8,
  NOT_SUPPORTED_ERR: 9,
  INUSE_ATTRIBUTE_ERR: 10,
  INVALID_STATE_ERR: 11,
  SYNTAX_ERR: 12,
  INVALID_MODIFICATION_ERR: 13,
  NAMESPACE_ERR: 14,
  INVALID_ACCESS_ERR: 15,
  VALIDATION_ERR: 16,
  TYPE_MISMATCH_ERR: 17,
  SECURITY_ERR: 18,
  NETWORK_ERR: 19,
  ABORT_ERR: 20,
  URL_MISMATCH_ERR: 21,
  QUOTA_EXCEEDED_ERR: 22,
  TIMEOUT_ERR: 23,
  INVALID_NODE_TYPE_ERR: 24,
  DATA_CLONE_ERR: 25,
};

const kName = Symbol('name');

class DOMException extends Error {
  constructor(message = '', options = 'Error') {
    super(String(message));
    let name = 'Error';
    if (options !== null && typeof options === 'object') {
      if ('name' in options) name = String(options.name);
      if ('cause' in options) {
        Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true, enumerable: false });
      }
    } else if (options !== undefined) {
      name = String(options);
    }
    // name/message/code are accessors on the prototype in browsers and
    // Node; keep them off the instance so util.inspect shows no own props.
    Object.defineProperty(this, kName, { value: name, enumerable: false });
    Object.defineProperty(this, 'message', { value: String(message), enumerable: false, writable: true, configurable: true });
    if (typeof this.stack === 'string' && this.stack.startsWith('Error')) {
      this.stack = `${name}${this.stack.slice(5)}`;
    }
  }

  get name() {
    return this[kName];
  }

  get code() {
    return legacyCodes[this[kName]] || 0;
  }
}

Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
for (const [key, value] of Object.entries(constantNames)) {
  Object.defineProperty(DOMException, key, { value, enumerable: true });
  Object.defineProperty(DOMException.prototype, key, { value, enumerable: true });
}

module.exports = { DOMException };
