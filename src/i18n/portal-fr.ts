// French catalog of the developer portal: the default language and the reference for portal-en.ts.
// Same typography as fr.ts: U+202F before ? ! ; and U+00A0 before :, U+2011 in "e‑mail".
import { portalIntegrationFr } from './portal-integration-fr.ts';

export const portalFr = {
  ...portalIntegrationFr,
  'portal.name': 'Portail développeurs',
  'page.title': '{page} · Portail développeurs',
  'nav.apps': 'Mes applications',
  'nav.signOut': 'Se déconnecter du portail',
  'nav.signedInAs': 'Connecté en tant que {email}',
  'nav.language': 'Langue',

  'home.title': 'Portail développeurs',
  'home.intro': 'Enregistrez vos applications pour qu’elles puissent connecter leurs utilisateurs avec le service de connexion.',
  'home.signIn': 'Se connecter avec mon compte',
  'home.signInFailed': 'La connexion au portail n’a pas abouti. Réessayez.',

  'apps.title': 'Mes applications',
  'apps.empty': 'Vous n’avez encore enregistré aucune application.',
  'apps.new': 'Enregistrer une application',
  'apps.clientId': 'client_id',

  'appType.web': 'Site web (serveur)',
  'appType.spa': 'Application web monopage',
  'appType.mobile': 'Application mobile',
  'appType.server': 'Service serveur (machine à machine)',

  'form.newTitle': 'Enregistrer une application',
  'form.editTitle': 'Modifier {name}',
  'form.errorSummary': 'Le formulaire contient des erreurs. Corrigez les champs signalés.',
  'form.name': 'Nom',
  'form.nameHint': 'Affiché aux utilisateurs sur l’écran de consentement.',
  'form.description': 'Description',
  'form.descriptionHint': 'Ce que fait l’application, en une ou deux phrases.',
  'form.appType': 'Type d’application',
  'form.appTypeFixed': 'Le type ne peut pas être changé après l’enregistrement.',
  'form.redirectUris': 'Adresses de retour (redirect URI)',
  'form.redirectUrisHint':
    'Une adresse par ligne, exacte, écrite sous sa forme canonique (https://app.exemple.org/callback : schéma et hôte en minuscules, sans port par défaut, sans barre oblique inversée). https obligatoire. http seulement sur une adresse locale (localhost, 127.0.0.1, [::1]) et seulement pour une application web monopage ou mobile, pendant le développement : un site web (serveur) utilise toujours https. Application mobile : aussi un schéma privé en nom de domaine inversé (com.exemple.app:/callback).',
  'form.fedcmOrigins': 'Origines FedCM (facultatif)',
  'form.fedcmOriginsHint':
    'Les sites d’où votre application peut proposer la connexion par le sélecteur de comptes du navigateur (FedCM) : les origines https de vos adresses de retour le peuvent déjà. Ajoutez-en d’autres ici, une par ligne, sans chemin : https://www.exemple.org.',
  'error.fedcmOrigins.fedcm_origin.not_origin':
    '« {value} » n’est pas une origine : écrivez https://hôte ou https://hôte:port, en minuscules, sans chemin ni barre oblique finale.',
  'error.fedcmOrigins.redirect_uri.https_required': '« {value} » doit utiliser https : le navigateur ne propose FedCM qu’aux sites sûrs.',
  'form.scopes': 'Informations demandées (scopes)',
  'form.scopeRequired': 'Obligatoire',
  'form.scope.openid': 'openid : identifier l’utilisateur',
  'form.scope.email': 'email : son adresse e‑mail',
  'form.scope.profile': 'profile : son nom d’utilisateur et son prénom',
  'form.scope.phone': 'phone : son numéro de téléphone vérifié',
  'form.create': 'Enregistrer l’application',
  'form.save': 'Enregistrer les modifications',
  'form.cancel': 'Annuler',

  'error.required': 'Ce champ est obligatoire.',
  'error.name.too_long': 'Le nom ne doit pas dépasser 100 caractères.',
  'error.description.too_long': 'La description ne doit pas dépasser 1 000 caractères.',
  'error.too_long': 'Ce texte est trop long.',
  'error.invalid': 'Choisissez une valeur de la liste.',
  'error.redirectUris.required': 'Indiquez au moins une adresse de retour.',
  'error.redirect_uri.not_absolute': '« {value} » n’est pas une adresse absolue (elle doit commencer par https://).',
  'error.redirect_uri.fragment': '« {value} » ne doit pas contenir de fragment (#…).',
  'error.redirect_uri.userinfo':
    '« {value} » ne doit contenir ni nom d’utilisateur ni mot de passe (utilisateur@…) : le navigateur irait chez l’hôte écrit après le @.',
  'error.redirect_uri.wildcard': '« {value} » ne doit pas contenir de joker (*) : chaque adresse doit être exacte.',
  'error.redirect_uri.https_required':
    '« {value} » doit utiliser https : http n’est accepté que sur une adresse locale (localhost, 127.0.0.1, [::1]) et seulement pour une application web monopage ou mobile, pendant le développement.',
  'error.redirect_uri.not_canonical':
    '« {value} » n’est pas écrite sous sa forme canonique : navigateurs et bibliothèques la liraient chacun à leur façon. Écrivez-la ainsi : {canonical}',
  'error.redirect_uri.backslash':
    '« {value} » ne doit pas contenir de barre oblique inversée (\\) : un navigateur la lit comme /, d’autres bibliothèques non.',
  'error.redirect_uri.mobile_scheme':
    '« {value} » : une application mobile utilise https, un schéma privé en nom de domaine inversé (com.exemple.app:/callback) ou une adresse locale.',
  'error.unknown': 'Le scope « {value} » n’existe pas.',
  'error.required_scope': 'Le scope « {value} » est obligatoire.',

  'app.type': 'Type',
  'app.description': 'Description',
  'app.redirectUris': 'Adresses de retour',
  'app.scopes': 'Scopes',
  'app.edit': 'Modifier',
  'app.rotate': 'Générer un nouveau secret',
  'app.rotateHint': 'Vous choisissez combien de temps le secret actuel fonctionne encore.',
  'app.delete': 'Supprimer l’application',
  'app.created': 'Application enregistrée.',
  'app.updated': 'Modifications enregistrées.',
  'app.rotated': 'Nouveau secret généré. L’ancien ne fonctionne plus.',
  'app.secretTitle': 'Vos identifiants',
  'app.secretWarning':
    'Copiez le client_secret maintenant et gardez-le en lieu sûr : il ne sera plus jamais affiché. Si vous le perdez, générez-en un nouveau.',
  'app.secretNever': 'Le client_secret n’est affiché qu’une fois, à la création ou après en avoir généré un nouveau.',
  'app.copy': 'Copier',
  'app.copied': 'Copié',

  'help.title': 'Intégrer cette application',
  'help.intro':
    'Toute bibliothèque OpenID Connect certifiée sait se configurer à partir de l’adresse de découverte. PKCE (S256) est obligatoire ; le client_secret est envoyé dans le corps de la requête.',
  'help.discovery': 'Adresse de découverte',
  'help.authorize': '1. Envoyer l’utilisateur vers cette adresse (remplacez STATE et CODE_CHALLENGE)',
  'help.token': '2. Échanger le code reçu contre des jetons',
  'help.refresh': 'Renouveler les jetons',
  'help.userinfo': '3. Lire les informations de l’utilisateur',

  'delete.title': 'Supprimer {name} ?',
  'delete.warning':
    'L’application ne pourra plus connecter personne. Tous les accès accordés par les utilisateurs et tous les jetons émis pour elle seront révoqués. Cette action est définitive.',
  'delete.confirm': 'Oui, supprimer définitivement',
  'delete.deleted': 'L’application « {name} » a été supprimée.',

  'error.notFound.title': 'Page introuvable',
  'error.notFound.message': 'Cette page n’existe pas, ou cette application n’est pas la vôtre.',
  'error.forbidden.title': 'Formulaire expiré',
  'error.forbidden.message': 'Ce formulaire n’est plus valide. Revenez à la page précédente, rechargez-la et recommencez.',
  'error.generic.title': 'Une erreur est survenue',
  'error.generic.message': 'La demande n’a pas pu aboutir. Réessayez dans quelques instants.',
  'error.back': 'Retour à mes applications',
  'nav.brandLinks': 'Informations sur le service',
  'form.appTypeHint':
    'Application mobile et application web monopage : applications publiques, qui s’authentifient avec PKCE seul, sans secret (un secret livré dans une application ou une page n’est plus secret). Site web : application confidentielle, qui envoie son client_secret. Service serveur (machine à machine) : un programme qui appelle pour son propre compte, sans utilisateur ; il obtient ses jetons avec le grant client_credentials et son client_secret, sans adresse de retour ni scope (ni openid, ni email, ni profile : ses jetons ne désignent aucun utilisateur).',
  'form.scopesHint':
    'openid et email sont toujours partagés : l’utilisateur ne peut pas les décocher, il peut seulement refuser toute la demande. profile est facultatif : l’utilisateur peut refuser de le partager.',
  'form.links': 'Liens affichés sur l’écran de consentement (facultatifs)',
  'form.linksHint': 'Adresses https complètes. Le service ne les télécharge pas : le navigateur de l’utilisateur les ouvre.',
  'form.logoUri': 'Logo (logo_uri)',
  'form.logoUriHint':
    'Affiché seulement quand un administrateur du service a vérifié l’application. Changer de nom ou de logo annule cette vérification.',
  'form.policyUri': 'Politique de confidentialité (policy_uri)',
  'form.tosUri': 'Conditions d’utilisation (tos_uri)',
  'error.link.not_absolute': '« {value} » n’est pas une adresse complète (elle doit commencer par https://).',
  'error.link.https_required': '« {value} » doit utiliser https.',
  'error.link.userinfo': '« {value} » ne doit contenir ni nom d’utilisateur ni mot de passe.',
  'error.link.fragment': '« {value} » ne doit pas contenir de fragment (#…).',
  'error.link.unsafe': '« {value} » ne doit contenir ni espace, ni apostrophe, ni guillemet, ni virgule, ni point-virgule.',
  'app.verified':
    'Application vérifiée par un administrateur du service : l’écran de consentement affiche son logo et le domaine de votre adresse e‑mail.',
  'app.unverified':
    'Application non vérifiée : l’écran de consentement l’indique aux utilisateurs et n’affiche pas son logo. Un administrateur du service peut la vérifier.',
  'app.secretPublic':
    'Cette application est publique : elle n’a pas besoin de ce secret, PKCE suffit. Ne le mettez pas dans l’application ; s’il est envoyé quand même, il est accepté.',
  'help.introPublic':
    'Toute bibliothèque OpenID Connect certifiée (AppAuth par exemple) sait se configurer à partir de l’adresse de découverte. Application publique : PKCE (S256) protège le code, aucun secret n’est envoyé (token_endpoint_auth_method : none). Les jetons de rafraîchissement changent à chaque usage.',
  'form.userFacing': 'Connexion des utilisateurs',
  'form.userFacingHint': 'Pas pour un service serveur : il ne connecte aucun utilisateur, il n’a ni adresse de retour ni scope.',
  'app.grant': 'Autorisation',
  'app.grantServer': 'client_credentials : le service demande des jetons pour lui-même, sans utilisateur.',
  'help.introServer':
    'Service serveur (machine à machine) : il obtient un jeton d’accès pour lui-même avec le grant client_credentials (RFC 6749 §4.4), en envoyant son client_secret dans le corps de la requête. Ce jeton ne désigne aucun utilisateur (pas de sub) et ne porte aucun scope : /oauth/userinfo le refuse. Vos propres API peuvent le vérifier par introspection, avec les identifiants de cette application.',
  'help.clientCredentials': '1. Obtenir un jeton d’accès pour le service',
  'help.introspect': '2. Vérifier un jeton (introspection)',
  'help.revoke': 'Révoquer un jeton',
  'rotate.title': 'Générer un nouveau secret pour {name} ?',
  'rotate.warning':
    'Une fois l’ancien secret arrêté, toute demande qui l’envoie sera refusée. Chaque serveur qui l’utilise devra recevoir le nouveau secret, qui ne sera affiché qu’une fois.',
  'rotate.confirm': 'Oui, générer un nouveau secret',
  'reauth.intro': 'Votre connexion date de plus de 5 minutes : saisissez de nouveau votre mot de passe pour confirmer que c’est bien vous.',
  'reauth.password': 'Mot de passe',
  'reauth.required': 'Saisissez votre mot de passe pour continuer. Rien n’a été modifié.',
  'reauth.wrong': 'Mot de passe incorrect. Rien n’a été modifié.',
  'reauth.tooMany':
    'Trop de tentatives de connexion. Réessayez dans {minutes, plural, one {# minute} other {# minutes}}. Rien n’a été modifié.',
  'mail.rotated.subject': 'Nouveau secret pour votre application {name}',
  'mail.rotated.intro':
    'Un nouveau client_secret a été généré le {time} pour votre application « {name} » (client_id {clientId}), depuis le portail développeurs. L’ancien secret ne fonctionne plus : chaque serveur qui l’utilisait doit recevoir le nouveau.',
  'mail.rotated.ignore':
    'Si ce n’était pas vous, quelqu’un d’autre utilise votre compte : choisissez tout de suite un nouveau mot de passe, puis générez un nouveau secret depuis le portail.',
  'mail.deleted.subject': 'Votre application {name} a été supprimée',
  'mail.deleted.intro':
    'Votre application « {name} » (client_id {clientId}) a été supprimée le {time}, depuis le portail développeurs. Elle ne peut plus connecter personne ; les accès et les jetons émis pour elle sont révoqués.',
  'mail.deleted.ignore':
    'Si ce n’était pas vous, quelqu’un d’autre utilise votre compte : choisissez tout de suite un nouveau mot de passe et vérifiez vos autres applications. Une application supprimée ne peut pas être rétablie : enregistrez-la de nouveau si besoin.',
  'mail.action.reset': 'Choisir un nouveau mot de passe',
  'mail.action.apps': 'Voir mes applications',
  'error.redirectUris.not_for_server': 'Un service serveur n’a pas d’adresse de retour : « {value} » ne peut pas être enregistrée.',
  'error.scopes.not_for_server': 'Un service serveur ne demande aucun scope : « {value} » ne peut pas être enregistré.',
} satisfies Record<string, string>;
