// French messages of the portal's integration help and secret overlap, spread into portal-fr.ts.
// Same typography as fr.ts: U+202F before ? ! ; and U+00A0 before :, U+2011 in "e‑mail".
export const portalIntegrationFr = {
  'app.secretNotNeeded': 'client_secret : inutile pour ce type d’application',
  'app.previousSecretUntil': 'L’ancien secret fonctionne encore jusqu’au {until} ; il sera ensuite refusé.',
  'app.rotatedOverlap': 'Nouveau secret généré. L’ancien fonctionne encore jusqu’au {until}.',
  'rotate.overlap': 'Combien de temps l’ancien secret doit-il encore fonctionner ?',
  'rotate.overlapHint': 'Un délai permet de passer chaque serveur de l’application au nouveau secret l’un après l’autre, sans coupure.',
  'rotate.overlap.none': 'Il cesse de fonctionner tout de suite',
  'rotate.overlap.1h': 'Encore une heure',
  'rotate.overlap.24h': 'Encore un jour (24 heures)',
  'help.stateRule':
    'state est obligatoire : envoyez une nouvelle valeur aléatoire à chaque connexion et vérifiez qu’elle revient inchangée (elle protège l’application contre les retours falsifiés). Sans elle, le service répond invalid_request. Avec openid-client, passez state: client.randomState() ; les autres bibliothèques ci-dessous l’ajoutent d’elles-mêmes.',
  'help.node.title': 'Application web Node.js (openid-client)',
  'help.node.intro':
    'Un programme complet, sans autre dépendance qu’openid-client : /login envoie l’utilisateur se connecter, l’adresse de retour reçoit le code, l’échange et affiche la réponse de userinfo, /logout le déconnecte. Placez-le derrière votre serveur https à l’adresse de retour enregistrée.',
  'help.python.title': 'Application web Python (Authlib)',
  'help.python.intro':
    'Le même programme en Python, avec Authlib et requests : Authlib ajoute state et PKCE, vérifie state au retour, et la signature, l’émetteur et l’audience du jeton d’identité sont vérifiés avec la JWKS du service.',
  'help.spa.title': 'Application monopage (oidc-client-ts)',
  'help.spa.intro':
    'oidc-client-ts se configure depuis l’adresse de découverte, ajoute PKCE et state, et les vérifie au retour. Application publique : aucun secret dans la page.',
  'help.fedcm.title': 'Sans redirection : le sélecteur de comptes du navigateur (FedCM)',
  'help.fedcm.intro':
    'Chrome, Edge et Samsung Internet, sur ordinateur et sur Android, affichent leur propre sélecteur de comptes (une feuille au bas de l’écran sur Android) : l’utilisateur reste sur votre page. Le script du service s’en sert quand le navigateur l’a, et repasse sinon par la redirection habituelle avec le même couple PKCE. Le code obtenu s’échange comme celui de la redirection, avec la même adresse de retour.',
  'help.mobile.title': 'Application mobile (AppAuth)',
  'help.mobile.intro':
    'AppAuth pour Android et iOS ouvre les pages de connexion dans le navigateur du système (jamais une WebView) et ajoute PKCE et state. Sur Android, un Custom Tab affiché en feuille au bas de l’écran garde l’application visible ; les pages du service sont faites pour cette feuille. Application publique : aucun secret dans l’application.',
  'help.mobile.android': 'Android (Kotlin)',
  'help.mobile.ios': 'iOS (Swift)',
  'help.curl.title': 'À la main, avec curl',
  'help.pkce': '0. De nouvelles valeurs PKCE et state pour chaque connexion',
  'help.signOut.title': 'Déconnexion',
  'help.signOut.intro':
    'Envoyez l’utilisateur à l’adresse de fin de session (end_session_endpoint) avec le jeton d’identité reçu à la connexion : le service lui demande de confirmer, ferme sa session puis le renvoie à post_logout_redirect_uri, qui doit être l’une des adresses de retour enregistrées pour cette application.',
  'help.claims.title': 'Ce que vous apprenez sur l’utilisateur',
  'help.claims.intro':
    'Le jeton d’identité dit seulement qui s’est connecté : sub, un identifiant stable propre à cette application. L’adresse e‑mail, le nom d’utilisateur et le prénom viennent de userinfo, pour les scopes demandés que l’utilisateur a acceptés.',
  'help.claims.where': 'Où',
  'help.claims.which': 'Claims',
  'help.claims.idToken': 'Jeton d’identité (id_token)',
  'help.claims.userinfo': 'userinfo, scope {scope}',
  'mail.rotatedOverlap.intro':
    'Un nouveau client_secret a été généré le {time} pour votre application « {name} » (client_id {clientId}), depuis le portail développeurs. L’ancien secret fonctionne encore jusqu’au {until} : chaque serveur qui l’utilise doit recevoir le nouveau d’ici là.',
} satisfies Record<string, string>;
