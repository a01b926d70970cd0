// The error page's "Go back" link: back in the browser's history (the content security policy
// allows no `javascript:` link). Without JavaScript, or with no page to go back to, it leads to
// the home page.
document.querySelectorAll("a[data-back]").forEach(function (link) {
  link.addEventListener("click", function (event) {
    if (window.history.length > 1) {
      event.preventDefault();
      window.history.back();
    }
  });
});
