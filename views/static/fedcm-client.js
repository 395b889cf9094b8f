// Sign-in with the service, for an application's page: the browser's own account chooser (FedCM) where the
// browser has it, the ordinary redirect elsewhere (Safari, Firefox, in-app WebViews), with the same PKCE pair.
// Served by the service at /fedcm/client.js; no framework, no dependency.
//
//   SignIn.start({ issuer, clientId, redirectUri, scope, codeChallenge, state })
//     .then(function (result) { if (result.code) sendToYourServer(result.code); });
//
// The code challenge (S256) comes from the application's server, which keeps the verifier and redeems the
// code at the token endpoint with it and with `redirectUri`, as for a code of the redirect flow. Without
// FedCM (or when the browser's chooser is dismissed and `fallback` is not false), the page goes to the
// authorization endpoint with the same challenge and state, and the code comes back to `redirectUri`.
(function (global) {
  'use strict';
  function redirect(o) {
    var query = new URLSearchParams({
      response_type: 'code',
      client_id: o.clientId,
      redirect_uri: o.redirectUri,
      scope: o.scope || 'openid',
      code_challenge: o.codeChallenge,
      code_challenge_method: 'S256',
    });
    query.set('state', o.state);
    global.location.assign(o.issuer + '/oauth/authorize?' + query.toString());
    return new Promise(function () {});
  }
  function start(o) {
    // The redirect flow needs a state to check on the way back (the service refuses a request without one).
    if (!o.state) return Promise.reject(new Error('SignIn.start: state is required (a random value your server checks)'));
    var hasFedcm = typeof global.IdentityCredential !== 'undefined' && global.navigator.credentials;
    if (!hasFedcm) return redirect(o);
    return global.navigator.credentials
      .get({
        identity: {
          context: o.context || 'signin',
          providers: [
            {
              configURL: o.issuer + '/fedcm/config.json',
              clientId: o.clientId,
              params: {
                scope: o.scope || 'openid',
                redirect_uri: o.redirectUri,
                code_challenge: o.codeChallenge,
                code_challenge_method: 'S256',
              },
            },
          ],
        },
        mediation: o.mediation || 'optional',
      })
      .then(function (credential) {
        return { code: credential.token, via: 'fedcm' };
      })
      .catch(function (error) {
        if (o.fallback === false) throw error;
        return redirect(o);
      });
  }
  global.SignIn = { start: start };
})(window);
