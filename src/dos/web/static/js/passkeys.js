// @ts-check
// WebAuthn in plain JavaScript, for the account panel (account.js, which loads this module at
// its first passkey ceremony): the server's options carry bytes in base64url, which become
// ArrayBuffers for navigator.credentials; the credential goes back in WebAuthn's JSON form,
// its bytes in base64url.

/** The bytes of base64url `text` (padding optional). @param {string} text */
export function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `buffer` (an ArrayBuffer or a view of one) in base64url, without padding.
 * @param {ArrayBuffer | ArrayBufferView} buffer */
export function toBase64url(buffer) {
  const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer)
    : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {{id: string}[]} [list] */
const descriptors = (list) => (list || []).map((c) => ({ ...c, id: fromBase64url(c.id) }));

/** @param {any} options JSON */
function creationOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
}

/** @param {any} options JSON */
function requestOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  };
}

// A credential as the server reads it (WebAuthn's JSON form), with its own response fields.
/** @param {PublicKeyCredential} credential @param {object} response */
function credentialJSON(credential, response) {
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: { clientDataJSON: toBase64url(credential.response.clientDataJSON), ...response },
  };
}

/** @param {PublicKeyCredential} credential */
function registrationJSON(credential) {
  const response = /** @type {AuthenticatorAttestationResponse} */ (credential.response);
  return credentialJSON(credential, {
    attestationObject: toBase64url(response.attestationObject),
    transports: typeof response.getTransports === "function" ? response.getTransports() : [],
  });
}

/** @param {PublicKeyCredential} credential */
function assertionJSON(credential) {
  const response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
  return credentialJSON(credential, {
    authenticatorData: toBase64url(response.authenticatorData),
    signature: toBase64url(response.signature),
    userHandle: response.userHandle ? toBase64url(response.userHandle) : null,
  });
}

/** A new passkey for the server's creation options (JSON), in the JSON form the server reads;
 * null if the browser made none. @param {any} options */
export async function create(options) {
  const credential = /** @type {PublicKeyCredential | null} */ (
    await navigator.credentials.create({ publicKey: creationOptions(options) }));
  return credential && registrationJSON(credential);
}

/** A passkey's signature for the server's request options (JSON), in the JSON form the server
 * reads; null if the browser gave none. @param {any} options */
export async function get(options) {
  const credential = /** @type {PublicKeyCredential | null} */ (
    await navigator.credentials.get({ publicKey: requestOptions(options) }));
  return credential && assertionJSON(credential);
}
