// Copy buttons of the developer portal. Served as a file (the CSP forbids inline script); without
// JavaScript the buttons stay hidden and the values remain selectable text.
document.querySelectorAll('button[data-copy]').forEach(function (button) {
  var target = document.getElementById(button.getAttribute('data-copy'));
  if (!target) return;
  var label = button.textContent;
  button.hidden = false;
  button.addEventListener('click', function () {
    var text = target.textContent.trim();
    var done = function () {
      button.textContent = button.getAttribute('data-copied');
      setTimeout(function () {
        button.textContent = label;
      }, 2000);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () {
        select(target);
      });
    } else {
      select(target);
    }
  });
});

// Where the clipboard is not available (an insecure context), select the value for Ctrl+C.
function select(element) {
  var range = document.createRange();
  range.selectNodeContents(element);
  var selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}
