// A Python web application with Authlib (its OAuth client sends `state` and the PKCE challenge on its own)
// and requests, on the standard library's HTTP server, so that it runs as pasted. The ID token is checked
// with Authlib's JOSE: signature from the service's JWKS, issuer, audience and expiry.
import { STATE_NOTE, type HelpSection } from './help-blocks.ts';
import { quoted, type HelpValues } from './help-values.ts';

export function pythonWebAppSection(values: HelpValues): HelpSection {
  return {
    id: 'help-section-python',
    title: 'help.python.title',
    intro: 'help.python.intro',
    blocks: [{ id: 'help-python', note: STATE_NOTE, lang: 'python', code: pythonWebApp(values) }],
  };
}

function pythonWebApp(v: HelpValues): string {
  const insecure = v.insecureIssuer
    ? "os.environ.setdefault('AUTHLIB_INSECURE_TRANSPORT', '1')  # a development issuer over http only\n"
    : '';
  const callbackPath = URL.parse(v.redirectUri)?.pathname ?? '/callback';
  return `# pip install authlib requests   (Debian, Ubuntu: apt install python3-authlib python3-requests)
# CLIENT_SECRET=your-secret python3 app.py, then open http://localhost:3000/login
import json, os, secrets
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urljoin, urlsplit

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt

ISSUER = ${quoted(v.issuer)}
CLIENT_ID = ${quoted(v.clientId)}
REDIRECT_URI = ${quoted(v.redirectUri)}
${insecure}metadata = requests.get(ISSUER + '/.well-known/openid-configuration', timeout=10).json()
sessions = {}  # per browser: the checks of a sign-in, then its ID token


def oauth():
    return OAuth2Session(CLIENT_ID, os.environ['CLIENT_SECRET'], scope=${quoted(v.scopes.join(' '))},
                         redirect_uri=REDIRECT_URI, code_challenge_method='S256',
                         token_endpoint_auth_method='client_secret_post')


class App(BaseHTTPRequestHandler):
    def do_GET(self):
        cookie = SimpleCookie(self.headers.get('Cookie', ''))
        sid = cookie['sid'].value if 'sid' in cookie else ''
        path = urlsplit(self.path).path
        if path == '/login':
            verifier = secrets.token_urlsafe(48)
            # Authlib adds a random state (required: checked when the user comes back) and the S256 challenge.
            url, state = oauth().create_authorization_url(metadata['authorization_endpoint'], code_verifier=verifier)
            sid = secrets.token_hex(16)
            sessions[sid] = {'state': state, 'verifier': verifier}
            # Add Secure to the cookie once the application is served over https.
            self.answer(302, headers={'Location': url, 'Set-Cookie': f'sid={sid}; HttpOnly; SameSite=Lax; Path=/'})
        elif path == ${quoted(callbackPath)}:
            checks = sessions.get(sid, {})
            if 'state' not in checks:
                return self.answer(400, b'no sign-in in progress')
            session = oauth()
            # The URL the service sent the browser to: the redirect URI with the code and state.
            token = session.fetch_token(metadata['token_endpoint'], state=checks['state'], code_verifier=checks['verifier'],
                                        authorization_response=urljoin(REDIRECT_URI, self.path))
            keys = JsonWebKey.import_key_set(requests.get(metadata['jwks_uri'], timeout=10).json())
            claims = jwt.decode(token['id_token'], keys, claims_options={
                'iss': {'essential': True, 'value': ISSUER}, 'aud': {'essential': True, 'value': CLIENT_ID}})
            claims.validate()  # the ID token names the user (sub); the rest comes from userinfo
            sessions[sid] = {'id_token': token['id_token']}
            user = session.get(metadata['userinfo_endpoint'], timeout=10).json()
            self.answer(200, json.dumps(user).encode(), {'Content-Type': 'application/json'})
        elif path == '/logout':
            id_token = sessions.pop(sid, {}).get('id_token')
            hint = {'id_token_hint': id_token} if id_token else {}
            url = requests.Request('GET', metadata['end_session_endpoint'],
                                   params={'post_logout_redirect_uri': REDIRECT_URI, **hint}).prepare().url
            self.answer(302, headers={'Location': url})
        else:
            self.answer(404)

    def answer(self, status, body=b'', headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


server = HTTPServer(('localhost', int(os.environ.get('PORT', '3000'))), App)
print('listening', flush=True)
server.serve_forever()`;
}
