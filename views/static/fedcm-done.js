// The end of a FedCM pop-up: the consent page's code goes to the browser, which hands it to the application
// that asked (IdentityProvider.resolve); a refusal, or the end of a sign-in, closes the pop-up and the
// browser carries on (a refusal rejects the application's request, with no code).
(function () {
  var outcome = document.getElementById('fedcm-outcome');
  if (!outcome || typeof IdentityProvider === 'undefined') return;
  var code = outcome.getAttribute('data-code');
  if (code) IdentityProvider.resolve(code);
  else IdentityProvider.close();
})();
