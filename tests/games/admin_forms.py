"""Drive admin forms as a browser does: read the form a page shows, change some fields, post it."""

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    """The fields of the page's main form with the values a browser would send unchanged."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self.form_depth = 0
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("id", "").endswith("_form"):
            self.form_depth += 1
        if not self.form_depth:
            return
        name = attrs.get("name")
        if tag == "input" and name and "disabled" not in attrs:
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.data.setdefault(name, []).append(attrs.get("value", "on"))
            elif kind not in ("submit", "button", "file"):
                self.data.setdefault(name, []).append(attrs.get("value", ""))
        elif tag == "select" and name:
            self.select = name
            self.data.setdefault(name, [])
        elif tag == "option" and self.select and "selected" in attrs:
            self.data[self.select].append(attrs.get("value", ""))
        elif tag == "textarea" and name:
            self.textarea = name
            self.data[name] = [""]

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form" and self.form_depth:
            self.form_depth -= 1

    def handle_data(self, data):
        if self.textarea:
            self.data[self.textarea][0] += data.lstrip("\n") if not self.data[self.textarea][0] else data


def form_data(client, url: str) -> dict:
    """What the admin page at `url` would post if saved as shown (multi-valued fields as lists)."""
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    reader = _FormReader()
    reader.feed(response.content.decode())
    return {name: values if len(values) != 1 else values[0] for name, values in reader.data.items()}


def post_form(client, url: str, **changes):
    """Post the admin form at `url` as shown, with `changes` (None leaves a field out, as an
    unticked checkbox)."""
    data = form_data(client, url)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return client.post(url, data)
