// Passkeys on the pages: the "sign in with a passkey" button and the identifier field's autofill (login),
// the creation of a passkey (the offer after a password sign-in, the account page), and the Signal API
// that tells the browser which passkeys no longer exist. Every page works without it: the forms it
// drives stay hidden until it shows them, and the password form is always there.
(function () {
  var PKC = window.PublicKeyCredential;
  if (!PKC || !navigator.credentials) return;

  function toBytes(value) {
    var text = atob(value.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((value.length + 3) % 4));
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
    return bytes.buffer;
  }
  function fromBytes(buffer) {
    var bytes = new Uint8Array(buffer);
    var text = '';
    for (var i = 0; i < bytes.length; i += 1) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  function withIds(list) {
    return (list || []).map(function (c) {
      return { type: c.type, id: toBytes(c.id), transports: c.transports };
    });
  }
  function requestOptions(o) {
    return Object.assign({}, o, { challenge: toBytes(o.challenge), allowCredentials: withIds(o.allowCredentials) });
  }
  function creationOptions(o) {
    return Object.assign({}, o, {
      challenge: toBytes(o.challenge),
      user: Object.assign({}, o.user, { id: toBytes(o.user.id) }),
      excludeCredentials: withIds(o.excludeCredentials),
    });
  }
  function credentialJSON(c) {
    var r = c.response;
    var response = { clientDataJSON: fromBytes(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = fromBytes(r.attestationObject);
      response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      response.authenticatorData = fromBytes(r.authenticatorData);
      response.signature = fromBytes(r.signature);
      if (r.userHandle) response.userHandle = fromBytes(r.userHandle);
    }
    return JSON.stringify({ id: c.id, rawId: fromBytes(c.rawId), type: c.type, response: response, clientExtensionResults: {} });
  }
  // The options of a ceremony, from the service (same origin): a JSON body, or an error message to show.
  function fetchOptions(url, body) {
    return fetch(url, { method: 'POST', body: body, credentials: 'same-origin', headers: { Accept: 'application/json' } }).then(
      function (res) {
        return res.json().then(function (json) {
          if (!res.ok) throw new Error(json.message || '');
          return json;
        });
      },
    );
  }
  function showError(form, message) {
    var box = form.querySelector('[data-passkey-error]');
    if (!box || !message) return;
    box.textContent = message;
    box.hidden = false;
  }

  // Sign in: the button, and the autofill of the identifier field where the browser offers it.
  var signIn = document.querySelector('form[data-passkey-sign-in]');
  if (signIn) {
    var optionsUrl = signIn.getAttribute('data-options');
    var field = signIn.querySelector('input[name="credential"]');
    var pending = null;
    var answer = function (options, mediation, signal) {
      return navigator.credentials.get({ publicKey: requestOptions(options), mediation: mediation, signal: signal }).then(function (c) {
        if (!c) return;
        field.value = credentialJSON(c);
        signIn.submit();
      });
    };
    signIn.hidden = false;
    signIn.addEventListener('submit', function (event) {
      if (field.value) return;
      event.preventDefault();
      if (pending) pending.abort();
      fetchOptions(optionsUrl)
        .then(function (options) {
          return answer(options, 'optional');
        })
        .catch(function (error) {
          if (error && error.name !== 'AbortError' && error.name !== 'NotAllowedError') showError(signIn, error.message);
        });
    });
    if (PKC.isConditionalMediationAvailable)
      PKC.isConditionalMediationAvailable().then(function (available) {
        if (!available) return;
        pending = new AbortController();
        var signal = pending.signal;
        fetchOptions(optionsUrl)
          .then(function (options) {
            return answer(options, 'conditional', signal);
          })
          .catch(function () {});
      });
  }

  // The password form says whether this device can create a passkey: only then is one offered after it.
  var capable = document.querySelector('input[data-passkey-capable]');
  if (capable && PKC.isUserVerifyingPlatformAuthenticatorAvailable)
    PKC.isUserVerifyingPlatformAuthenticatorAvailable().then(function (yes) {
      if (yes) capable.value = 'yes';
    });

  // Create a passkey: the options (asked with the form's fields), the browser's dialog, then the form's own post.
  document.querySelectorAll('form[data-passkey-create]').forEach(function (form) {
    var field = form.querySelector('input[name="credential"]');
    form.hidden = false;
    form.querySelectorAll('[data-passkey-needs-script]').forEach(function (el) {
      el.hidden = false;
    });
    form.addEventListener('submit', function (event) {
      if (field.value) return;
      event.preventDefault();
      fetchOptions(form.getAttribute('data-options'), new URLSearchParams(new FormData(form)))
        .then(function (options) {
          return navigator.credentials.create({ publicKey: creationOptions(options) });
        })
        .then(function (c) {
          if (!c) return;
          field.value = credentialJSON(c);
          // The password typed to confirm was checked with the options: it is not sent again.
          form.querySelectorAll('input[type="password"]').forEach(function (input) {
            input.value = '';
            input.required = false;
          });
          form.submit();
        })
        .catch(function (error) {
          showError(form, error && error.name === 'NotAllowedError' ? form.getAttribute('data-cancelled') : error.message);
        });
    });
  });

  // The Signal API: passkeys the service no longer knows, and the whole list it does, so that the
  // browser or the phone stops offering a passkey that can no longer sign in.
  document.querySelectorAll('[data-passkey-signal]').forEach(function (el) {
    var rpId = el.getAttribute('data-rp-id');
    var userId = el.getAttribute('data-user-id');
    var unknown = JSON.parse(el.getAttribute('data-unknown') || '[]');
    var accepted = el.getAttribute('data-accepted');
    if (PKC.signalUnknownCredential)
      unknown.forEach(function (id) {
        PKC.signalUnknownCredential({ rpId: rpId, credentialId: id }).catch(function () {});
      });
    if (accepted !== null && userId && PKC.signalAllAcceptedCredentials)
      PKC.signalAllAcceptedCredentials({ rpId: rpId, userId: userId, allAcceptedCredentialIds: JSON.parse(accepted) }).catch(
        function () {},
      );
  });
})();
