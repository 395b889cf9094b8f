// The "Afficher" button of password fields. Served as a file (the pages' policy allows no inline
// script); without JavaScript the buttons stay hidden and the fields work as usual.
document.querySelectorAll('button[data-reveal]').forEach(function (button) {
  var field = document.getElementById(button.getAttribute('data-reveal'));
  if (!field) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    var shown = field.type === 'password';
    field.type = shown ? 'text' : 'password';
    button.setAttribute('aria-pressed', String(shown));
    field.focus();
  });
  // Sent as a password whatever its state, so that the browser offers to save it as one.
  if (field.form)
    field.form.addEventListener('submit', function () {
      field.type = 'password';
    });
});
