// The "Afficher" button of password fields. Served as a file (the pages' policy allows no inline
// script); without JavaScript the buttons stay hidden and the fields work as usual. The label says
// what a press does: "Afficher" while the password is hidden, "Masquer" while it is shown.
document.querySelectorAll('button[data-reveal]').forEach(function (button) {
  var field = document.getElementById(button.getAttribute('data-reveal'));
  if (!field) return;
  var show = button.textContent;
  var hide = button.getAttribute('data-hide');
  function showPassword(shown) {
    field.type = shown ? 'text' : 'password';
    button.textContent = shown ? hide : show;
  }
  button.hidden = false;
  button.addEventListener('click', function () {
    showPassword(field.type === 'password');
    field.focus();
  });
  // Sent as a password whatever its state, so that the browser offers to save it as one.
  if (field.form)
    field.form.addEventListener('submit', function () {
      showPassword(false);
    });
});
