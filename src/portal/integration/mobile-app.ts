// A mobile application with AppAuth, Android and iOS: a public client, PKCE and a random `state`
// added by the library, the sign-in pages in the system browser. On Android the pages open in a Custom
// Tab shown as a bottom sheet (a partial Custom Tab, androidx.browser 1.5 or later), which the service's
// pages are laid out for; on iOS AppAuth uses ASWebAuthenticationSession.
import { STATE_NOTE, type HelpSection } from './help-blocks.ts';
import { literal, type HelpValues } from './help-values.ts';

export function mobileAppSection(values: HelpValues): HelpSection {
  return {
    id: 'help-section-mobile',
    title: 'help.mobile.title',
    intro: 'help.mobile.intro',
    blocks: [
      { id: 'help-android', title: 'help.mobile.android', note: STATE_NOTE, lang: 'kotlin', code: android(values) },
      { id: 'help-ios', title: 'help.mobile.ios', note: STATE_NOTE, lang: 'swift', code: ios(values) },
    ],
  };
}

/** The scheme AppAuth-Android's manifest placeholder needs: the redirect URI's own. */
const schemeOf = (uri: string): string => URL.parse(uri)?.protocol.replace(/:$/, '') ?? 'com.example.app';

function android(v: HelpValues): string {
  const scopes = v.scopes.map(literal).join(', ');
  return `// build.gradle.kts: implementation("net.openid:appauth:0.11.1"), implementation("androidx.browser:browser:1.8.0")
// and in defaultConfig: manifestPlaceholders["appAuthRedirectScheme"] = ${literal(schemeOf(v.redirectUri))}
private lateinit var authService: AuthorizationService

private val signIn = registerForActivityResult(ActivityResultContracts.StartActivityForResult()) { result ->
    val response = AuthorizationResponse.fromIntent(result.data ?: return@registerForActivityResult)
        ?: return@registerForActivityResult // AuthorizationException.fromIntent(result.data) says why
    // AppAuth has checked state; the code is exchanged with the PKCE verifier, without a secret.
    authService.performTokenRequest(response.createTokenExchangeRequest()) { tokens, error ->
        // tokens?.idToken names the user (sub); GET userinfo with tokens?.accessToken for the rest
    }
}

fun startSignIn() {
    authService = AuthorizationService(this)
    AuthorizationServiceConfiguration.fetchFromIssuer(Uri.parse(${literal(v.issuer)})) { config, error ->
        config ?: return@fetchFromIssuer
        val request = AuthorizationRequest.Builder(
            config, ${literal(v.clientId)}, ResponseTypeValues.CODE, Uri.parse(${literal(v.redirectUri)}),
        ).setScopes(${scopes}).build() // PKCE (S256) and a random state: added by AppAuth
        // The sign-in pages in a Custom Tab shown as a bottom sheet over the app.
        val sheet = authService.createCustomTabsIntentBuilder(request.toUri())
            .setInitialActivityHeightPx(resources.displayMetrics.heightPixels * 3 / 4)
            .build()
        signIn.launch(authService.getAuthorizationRequestIntent(request, sheet))
    }
}

// Sign-out: EndSessionRequest.Builder(config).setIdTokenHint(idToken)
//     .setPostLogoutRedirectUri(Uri.parse(${literal(v.redirectUri)})).build(),
// launched with authService.getEndSessionRequestIntent(request).`;
}

function ios(v: HelpValues): string {
  const scopes = v.scopes.map(literal).join(', ');
  return `// Swift Package Manager: https://github.com/openid/AppAuth-iOS
import AppAuth

var currentFlow: OIDExternalUserAgentSession? // keep it until the redirect comes back
var authState: OIDAuthState?

func signIn(from viewController: UIViewController) {
    OIDAuthorizationService.discoverConfiguration(forIssuer: URL(string: ${literal(v.issuer)})!) { config, error in
        guard let config else { return }
        let request = OIDAuthorizationRequest(
            configuration: config, clientId: ${literal(v.clientId)}, scopes: [${scopes}],
            redirectURL: URL(string: ${literal(v.redirectUri)})!, responseType: OIDResponseTypeCode,
            additionalParameters: nil) // PKCE (S256) and a random state: added and checked by AppAuth
        currentFlow = OIDAuthState.authState(byPresenting: request, presenting: viewController) { state, error in
            authState = state
            // state?.lastTokenResponse?.idToken names the user (sub); GET userinfo with the access token for the rest
        }
    }
}

// Sign-out: OIDEndSessionRequest(configuration: config, idTokenHint: idToken,
//     postLogoutRedirectURL: URL(string: ${literal(v.redirectUri)})!, additionalParameters: nil),
// presented with OIDAuthorizationService.present(_:externalUserAgent:callback:).`;
}
