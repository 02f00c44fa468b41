//! A small WebDriver client (W3C WebDriver, JSON over HTTP): the commands
//! the browser test uses and nothing more, on the HTTP client the crate
//! already has (hyper's, through hyper-util's legacy client).
//!
//! Every command is a request to `{driver}/session/{id}/...`; the answer is
//! a JSON object `{"value": ...}`, and an error is an answer whose value
//! carries `error` (the WebDriver error code, such as `no such element`)
//! and `message`.

use std::fmt;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{Method, Request};
use hyper_util::client::legacy::Client as HttpClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};

/// The key under which WebDriver passes an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The error code of a search that found nothing.
const NO_SUCH_ELEMENT: &str = "no such element";

/// The left mouse button, as pointer actions number it.
pub(crate) const MOUSE_BUTTON_LEFT: u64 = 0;

/// What can go wrong with a command.
#[derive(Debug)]
pub(crate) enum Error {
    /// The request did not reach the driver, or its answer did not arrive.
    Transport(Box<dyn std::error::Error + Send + Sync>),
    /// The driver answered with a WebDriver error.
    WebDriver {
        /// The HTTP status of the answer.
        status: u16,
        /// The WebDriver error code (`no such element`, `invalid argument`...).
        code: String,
        /// The driver's explanation.
        message: String,
    },
    /// The answer is not what the protocol says it should be.
    Protocol(String),
    /// A wait ran out of time.
    Timeout(String),
}

impl Error {
    /// Whether this is the driver saying that no element matched.
    fn is_no_such_element(&self) -> bool {
        matches!(self, Error::WebDriver { code, .. } if code == NO_SUCH_ELEMENT)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Transport(e) => write!(f, "cannot talk to the WebDriver server: {e}"),
            Error::WebDriver { status, code, message } => {
                write!(f, "WebDriver error {code} (HTTP {status}): {message}")
            }
            Error::Protocol(what) => write!(f, "unexpected answer from the WebDriver server: {what}"),
            Error::Timeout(what) => write!(f, "timed out waiting for {what}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Transport(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}

/// How to find an element.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Locator<'a> {
    /// A CSS selector.
    Css(&'a str),
    /// An element's `id` attribute.
    Id(&'a str),
}

impl Locator<'_> {
    /// The locator as a WebDriver search: always by CSS selector (an id
    /// becomes an attribute selector, its value quoted and escaped).
    fn to_json(self) -> Value {
        let selector = match self {
            Locator::Css(css) => css.to_string(),
            Locator::Id(id) => format!("[id={}]", css_string(id)),
        };
        json!({ "using": "css selector", "value": selector })
    }
}

/// `s` as a CSS string literal in double quotes.
fn css_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            // Control characters (newlines included) cannot stand in a CSS
            // string: they are written as hexadecimal escapes.
            c if c.is_control() => out.push_str(&format!("\\{:x} ", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Keys without a character of their own, as WebDriver's key table codes
/// them (characters of Unicode's private use area).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    /// The Enter key.
    Enter,
}

impl From<Key> for char {
    fn from(key: Key) -> char {
        match key {
            Key::Enter => '\u{E007}',
        }
    }
}

/// One step of a pointer's action sequence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum PointerAction {
    /// Move to `(x, y)` in the viewport, taking `duration` (the driver's
    /// default when `None`).
    MoveTo {
        /// How long the move takes.
        duration: Option<Duration>,
        /// The horizontal position in CSS pixels.
        x: f64,
        /// The vertical position in CSS pixels.
        y: f64,
    },
    /// Press `button`.
    Down {
        /// The button ([`MOUSE_BUTTON_LEFT`]...).
        button: u64,
    },
    /// Release `button`.
    Up {
        /// The button ([`MOUSE_BUTTON_LEFT`]...).
        button: u64,
    },
}

impl PointerAction {
    fn to_json(self) -> Value {
        match self {
            PointerAction::MoveTo { duration, x, y } => {
                let mut step = json!({ "type": "pointerMove", "origin": "viewport", "x": x, "y": y });
                if let Some(d) = duration {
                    step["duration"] = json!(u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
                }
                step
            }
            PointerAction::Down { button } => json!({ "type": "pointerDown", "button": button }),
            PointerAction::Up { button } => json!({ "type": "pointerUp", "button": button }),
        }
    }
}

/// A mouse's sequence of actions, performed in order by
/// [`Client::perform_actions`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MouseActions {
    id: String,
    actions: Vec<PointerAction>,
}

impl MouseActions {
    /// An empty sequence for the mouse named `id`.
    pub(crate) fn new(id: String) -> Self {
        MouseActions { id, actions: Vec::new() }
    }

    /// The sequence followed by `action`.
    pub(crate) fn then(mut self, action: PointerAction) -> Self {
        self.actions.push(action);
        self
    }

    fn to_json(&self) -> Value {
        json!({
            "type": "pointer",
            "id": self.id,
            "parameters": { "pointerType": "mouse" },
            "actions": self.actions.iter().map(|a| a.to_json()).collect::<Vec<_>>(),
        })
    }
}

/// A WebDriver session: one browser, driven by the commands below.
#[derive(Debug, Clone)]
pub(crate) struct Client {
    http: HttpClient<HttpConnector, Full<Bytes>>,
    /// `{driver}/session/{id}`, the prefix of every command's address.
    session: String,
}

impl Client {
    /// Opens a session on the driver at `driver` (such as
    /// `http://127.0.0.1:9515`), asking for `capabilities` (the
    /// `alwaysMatch` capabilities of W3C's new-session command).
    pub(crate) async fn connect(driver: &str, capabilities: &Value) -> Result<Client, Error> {
        let http = HttpClient::builder(TokioExecutor::new()).build(HttpConnector::new());
        let driver = driver.trim_end_matches('/');
        let body = json!({ "capabilities": { "alwaysMatch": capabilities, "firstMatch": [{}] } });
        let value = send(&http, Method::POST, &format!("{driver}/session"), Some(&body)).await?;
        let id = value["sessionId"]
            .as_str()
            .ok_or_else(|| Error::Protocol(format!("a new session without a sessionId: {value}")))?;
        Ok(Client { http, session: format!("{driver}/session/{}", path_segment(id)) })
    }

    /// Sends a command to the session: `path` is relative to the session's
    /// address (`""` for the session itself). Returns the answer's value.
    async fn command(&self, method: Method, path: &str, body: Option<&Value>) -> Result<Value, Error> {
        send(&self.http, method, &format!("{}{path}", self.session), body).await
    }

    /// Loads `url` in the current window and waits for it to load.
    pub(crate) async fn goto(&self, url: &str) -> Result<(), Error> {
        self.command(Method::POST, "/url", Some(&json!({ "url": url }))).await?;
        Ok(())
    }

    /// The first element of the page that `locator` matches.
    pub(crate) async fn find(&self, locator: Locator<'_>) -> Result<Element<'_>, Error> {
        let value = self.command(Method::POST, "/element", Some(&locator.to_json())).await?;
        Element::from_json(self, &value)
    }

    /// Every element of the page that `locator` matches, in document order.
    pub(crate) async fn find_all(&self, locator: Locator<'_>) -> Result<Vec<Element<'_>>, Error> {
        let value = self.command(Method::POST, "/elements", Some(&locator.to_json())).await?;
        let all = value.as_array().ok_or_else(|| Error::Protocol(format!("not a list of elements: {value}")))?;
        all.iter().map(|e| Element::from_json(self, e)).collect()
    }

    /// A wait for something on the page (30 seconds at most unless told).
    pub(crate) fn wait(&self) -> Wait<'_> {
        Wait { client: self, timeout: Duration::from_secs(30), period: Duration::from_millis(250) }
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the
    /// page and returns what it returns (a promise is awaited).
    pub(crate) async fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value, Error> {
        self.command(Method::POST, "/execute/sync", Some(&json!({ "script": script, "args": args }))).await
    }

    /// A screenshot of the current window, as PNG.
    pub(crate) async fn screenshot(&self) -> Result<Vec<u8>, Error> {
        let value = self.command(Method::GET, "/screenshot", None).await?;
        let encoded =
            value.as_str().ok_or_else(|| Error::Protocol(format!("a screenshot that is not text: {value}")))?;
        decode_base64(encoded).map_err(|e| Error::Protocol(format!("a screenshot that is not base64: {e}")))
    }

    /// Resizes the window's outer frame to `width` by `height` pixels.
    pub(crate) async fn set_window_size(&self, width: u32, height: u32) -> Result<(), Error> {
        self.command(Method::POST, "/window/rect", Some(&json!({ "width": width, "height": height }))).await?;
        Ok(())
    }

    /// Performs the mouse's actions, in order.
    pub(crate) async fn perform_actions(&self, mouse: MouseActions) -> Result<(), Error> {
        self.command(Method::POST, "/actions", Some(&json!({ "actions": [mouse.to_json()] }))).await?;
        Ok(())
    }

    /// Releases every key and button that actions left pressed.
    pub(crate) async fn release_actions(&self) -> Result<(), Error> {
        self.command(Method::DELETE, "/actions", None).await?;
        Ok(())
    }

    /// Ends the session, closing the browser.
    pub(crate) async fn close(self) -> Result<(), Error> {
        self.command(Method::DELETE, "", None).await?;
        Ok(())
    }
}

/// A wait for an element, made by [`Client::wait`].
#[derive(Debug, Clone)]
pub(crate) struct Wait<'c> {
    client: &'c Client,
    timeout: Duration,
    period: Duration,
}

impl<'c> Wait<'c> {
    /// Waits at most `timeout`.
    pub(crate) fn at_most(self, timeout: Duration) -> Self {
        Wait { timeout, ..self }
    }

    /// Waits until `locator` matches an element of the page and returns
    /// it; fails with [`Error::Timeout`] if none does in time.
    pub(crate) async fn for_element(self, locator: Locator<'_>) -> Result<Element<'c>, Error> {
        let begin = Instant::now();
        loop {
            match self.client.find(locator).await {
                Ok(element) => return Ok(element),
                Err(e) if e.is_no_such_element() && begin.elapsed() < self.timeout => {
                    tokio::time::sleep(self.period).await;
                }
                Err(e) if e.is_no_such_element() => {
                    return Err(Error::Timeout(format!("an element matching {locator:?}")));
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// An element of the page, as the session knows it.
#[derive(Debug, Clone)]
pub(crate) struct Element<'c> {
    client: &'c Client,
    id: String,
}

impl<'c> Element<'c> {
    /// The element a reference (`{"element-6066-...": id}`) names.
    fn from_json(client: &'c Client, value: &Value) -> Result<Self, Error> {
        let id =
            value[ELEMENT_KEY].as_str().ok_or_else(|| Error::Protocol(format!("not an element reference: {value}")))?;
        Ok(Element { client, id: id.to_string() })
    }

    /// Sends a command about this element: `path` is relative to the
    /// element's address.
    async fn command(&self, method: Method, path: &str, body: Option<&Value>) -> Result<Value, Error> {
        self.client.command(method, &format!("/element/{}{path}", path_segment(&self.id)), body).await
    }

    /// The first element inside this one that `locator` matches.
    pub(crate) async fn find(&self, locator: Locator<'_>) -> Result<Element<'c>, Error> {
        let value = self.command(Method::POST, "/element", Some(&locator.to_json())).await?;
        Element::from_json(self.client, &value)
    }

    /// Clicks the element's centre (scrolling it into view first).
    pub(crate) async fn click(&self) -> Result<(), Error> {
        self.command(Method::POST, "/click", Some(&json!({}))).await?;
        Ok(())
    }

    /// The element's text as rendered.
    pub(crate) async fn text(&self) -> Result<String, Error> {
        let value = self.command(Method::GET, "/text", None).await?;
        match value {
            Value::String(s) => Ok(s),
            v => Err(Error::Protocol(format!("an element's text that is not a string: {v}"))),
        }
    }

    /// The element's attribute `name`, if it has one.
    pub(crate) async fn attr(&self, name: &str) -> Result<Option<String>, Error> {
        match self.command(Method::GET, &format!("/attribute/{}", path_segment(name)), None).await? {
            Value::String(s) => Ok(Some(s)),
            Value::Null => Ok(None),
            v => Err(Error::Protocol(format!("an attribute that is not a string: {v}"))),
        }
    }

    /// The element's DOM property `name` as text (a boolean or a number
    /// written out), if it is set.
    pub(crate) async fn prop(&self, name: &str) -> Result<Option<String>, Error> {
        match self.command(Method::GET, &format!("/property/{}", path_segment(name)), None).await? {
            Value::String(s) => Ok(Some(s)),
            Value::Null => Ok(None),
            v @ (Value::Bool(_) | Value::Number(_)) => Ok(Some(v.to_string())),
            v => Err(Error::Protocol(format!("a property that is neither text, a number nor a boolean: {v}"))),
        }
    }

    /// The element's box in CSS pixels: `(x, y, width, height)`, from the
    /// page's top left corner.
    pub(crate) async fn rectangle(&self) -> Result<(f64, f64, f64, f64), Error> {
        let value = self.command(Method::GET, "/rect", None).await?;
        let get =
            |k: &str| value[k].as_f64().ok_or_else(|| Error::Protocol(format!("a rectangle without {k}: {value}")));
        Ok((get("x")?, get("y")?, get("width")?, get("height")?))
    }

    /// Types `text` into the element (characters of [`Key`] press those keys).
    pub(crate) async fn send_keys(&self, text: &str) -> Result<(), Error> {
        self.command(Method::POST, "/value", Some(&json!({ "text": text }))).await?;
        Ok(())
    }

    /// Empties an editable element.
    pub(crate) async fn clear(&self) -> Result<(), Error> {
        self.command(Method::POST, "/clear", Some(&json!({}))).await?;
        Ok(())
    }

    /// Chooses the option of this `<select>` whose value is `value`.
    pub(crate) async fn select_by_value(&self, value: &str) -> Result<(), Error> {
        let option = format!("option[value={}]", css_string(value));
        self.find(Locator::Css(&option)).await?.click().await
    }
}

/// Sends one request to the driver and returns the value of its answer, or
/// the WebDriver error the answer carries.
async fn send(
    http: &HttpClient<HttpConnector, Full<Bytes>>,
    method: Method,
    url: &str,
    body: Option<&Value>,
) -> Result<Value, Error> {
    let mut request = Request::builder().method(method).uri(url);
    let body = match body {
        Some(b) => {
            request = request.header(CONTENT_TYPE, "application/json; charset=utf-8");
            Bytes::from(b.to_string())
        }
        None => Bytes::new(),
    };
    let request = request
        .header(CONTENT_LENGTH, body.len())
        .body(Full::new(body))
        .map_err(|e| Error::Protocol(format!("cannot make a request to {url}: {e}")))?;
    let response = http.request(request).await.map_err(|e| Error::Transport(Box::new(e)))?;
    let status = response.status();
    let bytes = response.into_body().collect().await.map_err(|e| Error::Transport(Box::new(e)))?.to_bytes();
    let answer: Value = serde_json::from_slice(&bytes).map_err(|e| {
        Error::Protocol(format!(
            "HTTP {status} with a body that is not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        ))
    })?;
    let mut answer = match answer {
        Value::Object(map) => map,
        v => return Err(Error::Protocol(format!("HTTP {status} with an answer that is not an object: {v}"))),
    };
    let value = answer.remove("value").unwrap_or(Value::Null);
    match value.get("error").and_then(Value::as_str) {
        Some(code) => Err(Error::WebDriver {
            status: status.as_u16(),
            code: code.to_string(),
            message: value.get("message").and_then(Value::as_str).unwrap_or_default().to_string(),
        }),
        None if !status.is_success() => {
            Err(Error::Protocol(format!("HTTP {status} without a WebDriver error: {value}")))
        }
        None => Ok(value),
    }
}

/// `s` made safe as one segment of a URL's path: every byte but the
/// unreserved characters of RFC 3986 percent-encoded.
fn path_segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A base64 text that cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Base64Error(String);

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Base64Error {}

/// Decodes base64 in the standard alphabet (RFC 4648, section 4), with or
/// without its `=` padding; white space is skipped. Bits left over in the
/// last character must be zero.
pub(crate) fn decode_base64(text: &str) -> Result<Vec<u8>, Base64Error> {
    fn sextet(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits, mut chars, mut padding) = (0u32, 0u32, 0usize, 0usize);
    for (i, c) in text.bytes().enumerate() {
        if c.is_ascii_whitespace() {
            continue;
        }
        if c == b'=' {
            padding += 1;
            continue;
        }
        if padding > 0 {
            return Err(Base64Error(format!("data after the padding at byte {i}")));
        }
        let v = sextet(c).ok_or_else(|| Base64Error(format!("{:?} at byte {i} is not base64", char::from(c))))?;
        acc = (acc << 6) | v;
        bits += 6;
        chars += 1;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    match chars % 4 {
        1 => return Err(Base64Error(format!("{chars} characters: one too many for whole bytes"))),
        r if padding > 0 && (r == 0 || padding != 4 - r) => {
            return Err(Base64Error(format!("{padding} padding characters after {chars} characters")));
        }
        _ => {}
    }
    if acc != 0 {
        return Err(Base64Error("nonzero bits after the last byte".to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Standard base64 with padding, to check the decoder against.
    fn encode(data: &[u8]) -> String {
        const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in data.chunks(3) {
            let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    #[test]
    fn base64_decodes_the_rfc_4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(decode_base64(encoded).as_deref(), Ok(plain.as_bytes()), "{encoded}");
            assert_eq!(encode(plain.as_bytes()), encoded);
            let unpadded = encoded.trim_end_matches('=');
            assert_eq!(decode_base64(unpadded).as_deref(), Ok(plain.as_bytes()), "{unpadded}");
        }
    }

    #[test]
    fn base64_decodes_every_byte_at_every_offset() {
        let data: Vec<u8> = (0..=255u8).rev().chain(0..=255).collect();
        for start in 0..3 {
            for len in [0, 1, 2, 3, 4, 5, 100, 509 - start] {
                let slice = &data[start..start + len];
                assert_eq!(decode_base64(&encode(slice)).as_deref(), Ok(slice), "{start}+{len}");
            }
        }
        assert_eq!(decode_base64("iVBO\r\nRw0K\tGgo= ").as_deref(), Ok(&b"\x89PNG\r\n\x1a\n"[..]));
    }

    #[test]
    fn base64_refuses_what_is_not_base64() {
        for bad in ["Zm9v!", "Z", "Zm9vY", "Zg=", "Zg===", "Zm9v=", "Zg==Zg==", "Zh==", "Zm9=", "-_8="] {
            assert!(decode_base64(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ids_and_values_are_quoted_for_css() {
        assert_eq!(css_string("seed"), "\"seed\"");
        assert_eq!(css_string("a\"b\\c\nd"), "\"a\\\"b\\\\c\\a d\"");
        assert_eq!(Locator::Id("x\"y").to_json()["value"], "[id=\"x\\\"y\"]");
        assert_eq!(path_segment("f.A1-b_~ /?"), "f.A1-b_~%20%2F%3F");
    }

    #[test]
    fn pointer_actions_follow_the_protocol() {
        let mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo { duration: None, x: 1.5, y: 2.0 })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
            .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(100)), x: 3.0, y: 4.0 })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        assert_eq!(
            mouse.to_json(),
            json!({
                "type": "pointer",
                "id": "mouse",
                "parameters": { "pointerType": "mouse" },
                "actions": [
                    { "type": "pointerMove", "origin": "viewport", "x": 1.5, "y": 2.0 },
                    { "type": "pointerDown", "button": 0 },
                    { "type": "pointerMove", "origin": "viewport", "x": 3.0, "y": 4.0, "duration": 100 },
                    { "type": "pointerUp", "button": 0 },
                ]
            })
        );
        assert_eq!(char::from(Key::Enter), '\u{E007}');
    }
}
