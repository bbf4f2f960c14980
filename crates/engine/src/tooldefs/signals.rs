//! What a definition's text tells the model to do, read without a list of
//! known attacks: poisoning puts into a tool's description an action the
//! tool's work does not need (read a secret and pass it in a parameter,
//! send something to an address the text names, change how another tool
//! is called, run a command, delete files) and, often, a way to keep it
//! from the user. The text is read for the parts of such an action, in
//! any phrasing, and fires when they come together within two
//! neighbouring sentences.
//!
//! Before the words are read, what is language-independent is marked as
//! a word of its own: an e-mail address, a link or a Git remote, a bank
//! account or a wallet (an IBAN only if its check digits hold), a command
//! in backticks, a secret file, another tool's name (an identifier in
//! backticks with `_`, `.` or a capital inside, or a `snake_case` word,
//! that is neither this tool's name nor one of its fields), one of the
//! tool's own fields, and arguments written out (`path="/"`). Addresses
//! and links at the domains set aside for examples (`example.com`,
//! `.test`, …), or after `e.g.` or `such as`, are not targets. The words
//! of secrecy, overriding, triggers and moving data are read in English,
//! German, French, Spanish, Italian, Portuguese, Russian, Chinese and
//! Japanese; the marked parts in any language.

use std::sync::LazyLock;

use regex_automata::meta::Regex;

/// The words that stand for marked parts of the text.
const TOOL: &str = " palisadetool ";
const PARAM: &str = " palisadeparam ";
const MAIL: &str = " palisademail ";
const LINK: &str = " palisadelink ";
const ACCOUNT: &str = " palisadeaccount ";
const COMMAND: &str = " palisadecommand ";
const SECRET: &str = " palisadesecret ";
const EXAMPLE: &str = " palisadeexample ";

/// What the definition says about itself: its name, and every property
/// name of its schemas (its parameters and its results' fields), in
/// lower case; and its work, the words of its name and parameters.
pub(super) struct Own<'a> {
    pub(super) name: &'a str,
    pub(super) fields: &'a [String],
    pub(super) purpose: &'a str,
}

impl Own<'_> {
    /// Whether the tool's work is about the secret file `found` (an SSH
    /// helper's key, an AWS tool's credentials file, a `.env` loader).
    fn about(&self, found: &str) -> bool {
        let found = found.to_lowercase();
        let works = |words: &[&str]| {
            words
                .iter()
                .any(|w| self.purpose.contains(&format!(" {w} ")))
        };
        super::FILES
            .iter()
            .filter(|(file, _, _)| found.contains(file.trim_end_matches('/')))
            .any(|(_, _, work)| works(work))
            || (found.contains(".env")
                && works(&[
                    "env",
                    "dotenv",
                    "environment",
                    "variables",
                    "config",
                    "settings",
                ]))
    }
}

/// The parts of an action that a window of text may hold.
#[derive(Clone, Copy, Default, Debug)]
struct Parts {
    hide: bool,
    overrides: bool,
    role: bool,
    always: bool,
    trigger: bool,
    sensitive: bool,
    moves: bool,
    sends: bool,
    recipient: bool,
    tamper: bool,
    mail: bool,
    link: bool,
    account: bool,
    exec: bool,
    destroy: bool,
    wide: bool,
    weaken: bool,
    persist: bool,
    tool: bool,
    hook: bool,
    usurp: bool,
    /// A verb that moves or writes something, wherever to.
    writes: bool,
    args: bool,
    command: bool,
    fetch: bool,
}

/// Patterns over the words view (lower case, words separated by one
/// space, a space at each end), one alternation per part.
struct Patterns {
    hide: Regex,
    overrides: Regex,
    role: Regex,
    always: Regex,
    trigger: Regex,
    sensitive: Regex,
    moves: Regex,
    into: Regex,
    sends: Regex,
    recipient: Regex,
    tamper: Regex,
    exec: Regex,
    destroy: Regex,
    wide: Regex,
    weaken: Regex,
    persist: Regex,
    tool: Regex,
    hook: Regex,
    usurp: Regex,
    unusual: Regex,
}

/// One alternation of `alternatives`; `None` if it does not compile (a
/// test keeps every pattern compiling; without them every definition is
/// held, [`directive`] says why).
fn any(alternatives: &[&str]) -> Option<Regex> {
    Regex::new(&format!("(?:{})", alternatives.join("|"))).ok()
}

static PATTERNS: LazyLock<Option<Patterns>> = LazyLock::new(|| {
    Some(Patterns {
        hide: any(&[
            // English: not telling the user, the user not needing to know.
            r" (?:do not|don t|dont|never|no need to|not to|need not|needn t|without|avoid) (?:(?:ever|even|bother|actually|explicitly) ){0,2}(?:tell|telling|told|inform|informing|notify|notifying|mention|mentioning|show|showing|alert|alerting|bring|bringing|report|reporting|disclose|disclosing|reveal|revealing|let|letting|warn|warning|surface|surfacing|explain|explaining)(?: (?:this|it|that|these|those|them|any|anything|about|of|the|a|an|step|steps|call|calls|action|actions|instruction|instructions|note|notes|change|changes|detail|details|part|to|with|for|from|our|any|ever|ever|in|your|reply|answer|response)){0,5} users? ",
            r" users? (?:does not|doesn t|do not|don t|need not|needn t|should not|shouldn t|must not|mustn t|won t|will not|is not|isn t|has no need to|never) (?:\S+ ){0,3}(?:see|know|notice|noticing|aware|told|informed|notified|bothered|need to know|be told|learn|find out) ",
            r" (?:do not|don t|dont|never|no need to) (?:mention|bring|say|reveal|disclose|report|tell|show|explain|describe|surface) (?:this|it|that|these|them|any of this|anything about this|the step|this step|these steps|this instruction|this note)(?: \S+){0,3} (?:in|to|with|on) (?:your|the) (?:answer|reply|response|responses|summary|output|chat|conversation) ",
            r" keep (?:this|it|that|these)(?: \S+){0,3} (?:between|secret|hidden|private|confidential|to yourself|quiet) ",
            r" (?:user|users|person|people|human|customer|operator|owner|anyone|nobody|no one)(?: \S+){0,6} (?:never|not|doesn t|does not|won t|will not|shouldn t|should not|must not|mustn t|can t|cannot) (?:\S+ )?(?:find out|finds out|found out|notice|notices|noticed|learn of|learns of|learn about|learns about|realize|realizes|realise|realises|become aware|becomes aware|get wind|gets wind|suspect|suspects) ",
            r" (?:secretly|covertly|discreetly|surreptitiously|behind the user s back|unbeknownst) ",
            r" (?:silently|quietly|invisibly) (?:\S+ ){0,1}(?:send|forward|add|include|copy|call|run|execute|delete|remove|upload|post|push|change|replace|set|read|pass|append|attach|bcc|cc|share|sync|mirror|install|collect|gather|export) ",
            r" (?:visible to|show to|notify|inform|tell|visible_to) (?:the )?users? (?:false|no|0|off|never|none) ",
            // German, French, Spanish, Italian, Portuguese, Russian.
            r" (?:nicht|niemals|keinesfalls|ohne)(?: \S+){0,5} (?:benutzer|benutzerin|nutzer|nutzerin|anwender|anwenderin|user)",
            r" (?:benutzer|nutzer|anwender)\S*(?: \S+){0,6} (?:nicht|nichts|niemals) ",
            r" (?:erwähne|erwähnen|sage|sagen|teile|zeige|informiere|verrate)\S*(?: \S+){0,4} (?:nicht|nichts|niemals)",
            r" (?:ne|n) (?:\S+ ){0,3}(?:dis|dites|dire|mentionne|mentionnez|mentionner|informe|informez|informer|signale|signalez|montre|montrez|parle|parlez|révèle|révélez)(?: \S+){0,6} (?:l )?utilisat",
            r" sans (?:le dire|en parler|informer|prévenir|avertir|le signaler|le mentionner)(?: \S+){0,3}",
            r" no (?:le |les |se lo |lo )?(?:digas|diga|decir|menciones|mencione|mencionar|informes|informe|informar|cuentes|cuente|contar|muestres|muestre|mostrar|avises|avise|avisar|comentes|comente|reveles|revele)(?: \S+){0,6} (?:usuario|usuaria|usuarios)",
            r" sin (?:decirle|decir|informar|avisar|mencionar|que el usuario)(?: \S+){0,4}",
            r" non (?:\S+ ){0,2}(?:dire|dirlo|dirgli|dica|menzionare|menzioni|informare|informi|mostrare|mostri|avvisare|avvisi|rivelare|riveli|comunicare|comunichi)(?: \S+){0,6} (?:utente|utenti)",
            r" senza (?:dirlo|dire|informare|avvisare|che l utente|menzionare)(?: \S+){0,4}",
            r" (?:não|nao) (?:\S+ ){0,2}(?:diga|dizer|conte|contar|mencione|mencionar|informe|informar|mostre|mostrar|avise|avisar|revele|revelar|comente|comentar)(?: \S+){0,6} (?:usuário|usuario|utilizador|usuária)",
            r" sem (?:informar|avisar|contar|dizer|mencionar|que o usuário)(?: \S+){0,4}",
            r" не (?:\S+ ){0,2}(?:говори|говорите|сообщай|сообщайте|упоминай|упоминайте|рассказывай|рассказывайте|показывай|показывайте|информируй|информируйте|уведомляй|уведомляйте|сообщать|говорить|упоминать)\S*(?: \S+){0,6} пользовател",
            r" без (?:ведома|уведомления|ведома пользователя)",
            // Chinese and Japanese (no spaces between words).
            r"(?:不要|不得|切勿|勿|无需|不必|别|不用)\S{0,8}(?:用户|使用者)",
            r"(?:用户|使用者)\S{0,8}(?:无需|不必|不需要|不用)\S{0,4}(?:知道|知晓|了解|告知)",
            r"(?:ユーザー|利用者|ユーザ)\S{0,12}(?:伝え|知らせ|言わ|通知し|見せ|表示し|報告し|説明し|教え)(?:ない|ず)",
            r"(?:ユーザー|利用者|ユーザ)\S{0,14}必要は(?:ありません|ない)",
            r"(?:内緒|秘密)に",
        ])?,
        overrides: any(&[
            r" (?:ignore|ignoring|disregard|disregarding|forget|override|overrides|supersede|supersedes|bypass|skip)(?: \S+){0,3} (?:previous|prior|earlier|above|preceding|other|all|any|user s|users|system|existing|original|your|safety|security) (?:\S+ ){0,2}(?:instructions?|guidance|guidelines|rules|requests?|prompts?|directions|directives|policies|restrictions|constraints|safeguards|messages?|confirmations?|checks|warnings) ",
            r" (?:instructions?|guidance|rules|directions)(?: \S+){0,6} (?:outdated|obsolete|no longer apply|no longer valid|superseded|void|revoked|cancelled) ",
            r" (?:higher|highest|top|more) (?:priority|precedence|authority) than (?:\S+ ){0,2}(?:user|users|instructions|anything|everything|system|what) ",
            r" takes? precedence over (?:\S+ ){0,2}(?:user|users|instructions|anything|everything|system|what) ",
            r" (?:ignoriere|ignorieren|missachte|vergiss)(?: \S+){0,3} (?:vorherigen|bisherigen|früheren|obigen|alle|anderen) ",
            r" (?:ignore|ignorez|oublie|oubliez)(?: \S+){0,3} (?:instructions|consignes) ",
            r" (?:ignora|ignore|olvida|olvide)(?: \S+){0,3} (?:instrucciones|istruzioni|instruções|indicaciones) ",
            r" (?:игнорируй|игнорируйте|забудь|забудьте)(?: \S+){0,3} (?:инструкции|указания|правила) ",
            r"(?:忽略|无视|忘记)\S{0,6}(?:之前|以前|先前|上述|此前|所有)",
            r"(?:以前|これまで|前|上記)の(?:指示|命令)を(?:無視|忘れ)",
        ])?,
        role: any(&[
            r" (?:system|developer|admin|administrator|operator|root) (?:override|message|note|notice|instruction|instructions|directive|command) ",
            r" (?:note|message|instructions?|directive|reminder) (?:to|for) (?:the )?(?:ai|assistant|assistants|model|llm|agent|agents|language model) ",
            r" (?:ai|llm|the assistant|the model|the agent|ai agents?|ai assistants?|language models?) (?:must|should|shall|needs? to|is required to|are required to|has to|have to|will) ",
            r" (?:assistant|agent) (?:must|should|shall|needs? to|has to) ",
            r" (?:palisadetag) ",
            r" (?:hinweis|anweisung|nachricht|nota|note|remarque|mensaje|messaggio|mensagem|сообщение|примечание) (?:für|an|pour|à|para|per|al|ao|для) (?:den |die |le |la |l |el |il |o |a )?(?:assistenten|assistentin|ki|assistant|ia|asistente|assistente|ассистента|ии|модели|modell|modèle|modelo|modello) ",
            r"(?:致助手|给助手|助手须知|アシスタントへ|アシスタント向け)",
        ])?,
        always: any(&[
            r" (?:whenever|every time|each time|any time|anytime) ",
            r" (?:before|after|prior to|ahead of|following|on|as part of|during|upon) (?:every|each|any|all) (?:\S+ ){0,2}(?:call|calls|request|requests|invocation|invocations|operation|operations|response|responses|answer|answers|message|messages|session|sessions|conversation|conversations|turn|turns|task|tasks|action|actions|reply|replies) ",
            r" on (?:each|every) (?:invocation|call|request) ",
            r" (?:only then|before you|before using|before calling) (?:\S+ ){0,2}(?:any|every|all) other ",
            r" (?:vor|nach|bei) (?:jedem|jeder|allen) ",
            r" (?:avant|après|lors de) (?:chaque|chacun|tout|toute) ",
            r" à chaque ",
            r" (?:antes de|después de|en|con) cada ",
            r" (?:prima di|dopo|ad|a) ogni ",
            r" (?:antes de|depois de|em|a) cada ",
            r" (?:перед|после|при) (?:каждым|каждой|каждом|любым|любой) ",
            r"(?:每次|在每次|每一次|任何操作之前|毎回|のたびに|する前に必ず)",
        ])?,
        trigger: any(&[
            r" (?:whenever|every time|each time|any time|anytime) ",
            r" (?:before|after|prior to|ahead of|following|on|with|for|as part of|during|upon) (?:every|each|any|all) (?:\S+ ){0,2}(?:call|calls|request|requests|invocation|invocations|use|uses|operation|operations|response|responses|answer|answers|message|messages|session|sessions|conversation|conversations|turn|turns|task|tasks|action|actions|run|runs|reply|replies|query|queries) ",
            r" before (?:answering|responding|replying|you answer|you respond|you reply|doing anything|anything else|proceeding|continuing|any other|returning|giving) ",
            r" (?:if|when|once|whenever) (?:the )?users? (?:\S+ ){0,2}(?:asks?|asked|mentions?|mentioned|says?|said|requests?|requested|wants?|talks?|types?|brings?|refers?|inquires?|is|has|writes?|shares?|provides?|uploads?) ",
            r" at the (?:start|beginning|end) of (?:every|each|the|any) (?:conversation|session|turn|task|chat) ",
            r" on (?:each|every) (?:invocation|call|run|request|use) ",
        ])?,
        sensitive: any(&[
            r" palisadesecret ",
            r" (?:system|developer|hidden|initial|original|internal) (?:prompts?|instructions?) ",
            r" (?:your|the assistant s|the model s) (?:system |developer )?(?:messages?|instructions|prompt|rules|guidelines|configuration) ",
            r" developer messages? ",
            r" (?:all |any |the )?(?:instructions|rules|guidelines|directions) (?:you )?(?:received|were given|have been given|got|have) ",
            r" before the users? s? first (?:message|turn|request) ",
            r" (?:claude desktop config|mcp json|mcp config|mcp servers config|dot ssh|id rsa|id ed25519|aws credentials|dotenv|env file|ssh keys?|ssh private key|kube config|docker config|git credentials|netrc) ",
            r" (?:chat|conversation|message|session|browsing|browser|shell|command|bash|zsh|terminal) (?:history|histories|log|logs|transcript|transcripts) ",
            r" (?:the )?(?:entire|whole|full|complete) (?:conversation|chat|dialogue|session|thread) ",
            r" (?:conversation|chat) so far ",
            r" (?:this|the|our|current|whole) (?:conversation|chat|dialogue) ",
            r" (?:previous|prior|earlier|past|all) (?:user )?(?:messages|turns|tool outputs|tool results|outputs|responses|exchanges) ",
            r" (?:everything|all|anything) the user (?:has )?(?:said|typed|written|asked|shared) ",
            r" (?:the )?users? s? (?:latest|last|previous|most recent|recent|original|current) (?:message|messages|request|prompt|query|input) ",
            r" (?:api|secret|access|private|ssh|signing|encryption|gpg|pgp|license) keys? ",
            r" (?:credentials?|passwords?|passphrases?|passcodes?|seed phrases?|recovery phrases?|secret phrases?|mnemonics?|mnemonic phrases?|private keys?|session tokens?|auth tokens?|access tokens?|bearer tokens?|refresh tokens?|oauth tokens?|cookies?|session cookies?|keychain|keyring|wallet|wallets|2fa codes?|otp codes?|one time codes?|backup codes?|recovery codes?) ",
            r" (?:environment variables|env vars?|env file|dotenv|secrets) ",
            r" (?:database|db|customer|customers|user|users|personal|private|internal|company|patient|employee) (?:dump|dumps|data|records|tables|backup|backups|list|lists|emails|contacts|details) ",
            r" (?:dump|dumps|export|exports|backup|copy) of (?:the |all |every )?(?:\S+ ){0,2}(?:database|db|tables|records|data) ",
            r" (?:contraseñas?|credenciales|clave privada|claves|passwort|passwörter|kennwort|zugangsdaten|schlüssel|mot de passe|mots de passe|identifiants|credenziali|chiavi|senhas?|credenciais|chaves|пароль|пароли|учетные данные|ключи|ключ|историю|переписку) ",
            r"(?:密码|密钥|凭证|凭据|私钥|助记词|对话记录|聊天记录|系统提示|令牌|口令|パスワード|秘密鍵|認証情報|会話履歴|チャット履歴|システムプロンプト|トークン|シークレット)",
        ])?,
        moves: any(&[
            r" (?:include|pass|passing|put|putting|copy|copying|fill|filling|paste|pasting|attach|attaching|insert|inserting|append|appending|embed|embedding|add|adding|enter|entering|place|supply|supplying|provide|providing|write|writing|populate|populating|store|save|record|dump|dumping|read|reading|collect|collecting|gather|gathering|extract|extracting|fetch|load|cat|retrieve|obtain|capture|upload|uploading|quote|repeat|echo|concatenate|encode|send|sending|post|posting|transmit) ",
            r" (?:füge|fügen|kopiere|kopieren|lies|lese|lesen|trage|übergib|übergeben|sende|incluye|incluya|copia|copie|lee|lea|pega|pegue|envía|envie|inserisci|includi|leggi|incolla|inclua|leia|cole|включи|вставь|скопируй|прочитай|приложи|отправь|ajoute|ajoutez|inclus|incluez|copiez|lis|lisez|colle|collez|insère|insérez|mets|mettez|pon|ponga|metti|coloque) ",
            r"(?:填入|填写|附上|读取|复制|粘贴|放入|加入|包含|写入|入力|貼り付け|読み取|読み込|コピー|含め|添付)",
        ])?,
        into: any(&[
            r" palisadeparam ",
            r" (?:pass|give|send|hand) (?:it|them) ",
            r" (?:field|parameter|param|argument|arg|property|payload|body|metadata|this value|here|header|headers|query string|url) ",
            r" (?:feld|parameter|campo|champ|paramètre|parámetro|parametro|argumento|поле|параметр) ",
            r"(?:字段|参数|フィールド|パラメータ|引数)",
        ])?,
        sends: any(&[
            r" (?:send|sends|sending|forward (?:\S+ ){0,5}to|forwarding|post|posting|upload|uploads|uploading|push|pushes|pushing|transmit|transmitting|exfiltrate|exfiltrating|mirror|mirroring|sync|syncing|deliver|delivering|bcc|cc|blind copy|blind copies|blind carbon|blind copying|relay|relaying|redirect|redirecting|reroute|rerouting|leak|leaking|beam|report|reporting|export|exporting|exfil) ",
            r" (?:senden|sende|schicke|schicken|weiterleiten|envoie|envoyez|envoyer|transfère|transférez|envía|envíe|enviar|envia|envie|invia|inviare|inoltra|inoltrare|отправь|отправьте|отправить|перешли|перешлите|destinatario|destinataire|empfänger|destinatário|получател|bcc|cópia oculta|copia oculta|copie cachée|copia nascosta|скрытая копия|blindkopie)\S* ",
            r"(?:发送|转发|上传|抄送|密送|收件人|送信|転送|アップロード|宛先|BCC)",
        ])?,
        recipient: any(&[
            r" (?:email|emails|e mail|mail|recipient|recipients|beneficiary|payee|remote|destination|webhook|to field|cc field|bcc field|address|addresses|endpoint) ",
        ])?,
        tamper: any(&[
            r" use (?:\S+ ){0,3}as (?:the |a |an )?(?:\S+ )?(?:recipient|remote|account|destination|target|endpoint|url|address|beneficiary|payee|bcc|cc|origin) ",
            r" (?:replace|replaces|replacing|change|changes|changing|override|overriding|swap|switch|redirect|redirects|reroute|substitute|instead|in place of|rather than|add|adding|append|appending|include) ",
            r" (?:ersetze|ändere|setze|statt|anstelle|remplace|remplacez|change|changez|au lieu|cambia|cambie|reemplaza|reemplace|en lugar|en vez|sostituisci|cambia|invece|substitua|troque|altere|em vez|замени|измени|вместо)\S* ",
            r"(?:替换|改为|改成|设置为|代替|而不是|置き換|変更|代わりに)",
        ])?,
        exec: any(&[
            r" palisadecommand ",
            r" (?:run|runs|running|execute|executes|executing|exec|launch|launching|invoke|type|enter|start)(?: \S+){0,4} (?:command|commands|script|scripts|terminal|shell|console|cli|command line|bash|powershell|cmd|installer|one liner|snippet) ",
            r" (?:command line|terminal|shell|bash|console) tool ",
            r" (?:führe|führen|ausführen|exécute|exécutez|ejecuta|ejecute|esegui|выполни|выполните|запусти)\S* ",
            r"(?:执行|运行|実行)",
        ])?,
        destroy: any(&[
            r" (?:delete|deleting|deletes|remove|removing|removes|wipe|wiping|erase|erasing|drop|dropping|truncate|truncating|purge|purging|destroy|destroying|overwrite|overwriting|shred|clear|clearing|rm|reset)\S*(?: \S+){0,8} (?:files?|folders?|directory|directories|dir|repository|repositories|repo|repos|database|databases|db|tables?|backups?|workspace|home|documents|records|everything|branch|branches|bucket|buckets|emails?|messages|contacts|palisadesecret|git|history|logs|volumes?|snapshots?) ",
            r" (?:delete|remove|wipe|erase|drop|purge|destroy|rm) (?:tool|command) ",
            r" (?:lösche|löschen|entferne|supprime|supprimez|borra|borre|elimina|elimine|cancella|apague|exclua|удали|удалите)\S* ",
            r"(?:删除|清空|削除)",
        ])?,
        wide: any(&[
            r" (?:delete|deleting|remove|removing|wipe|wiping|erase|erasing|purge|purging|destroy|destroying|rm|shred)\S*(?: \S+){0,4} (?:every|all|each) ",
            r" (?:delete|deleting|remove|removing|wipe|wiping|erase|erasing|purge|purging|destroy|destroying|rm|shred)\S*(?: \S+){0,6} (?:home|documents|desktop|downloads|backups|everything|all files|every file|whole|entire|root|palisadesecret|git) ",
        ])?,
        weaken: any(&[
            r" (?:disable|disabling|turn off|turning off|switch off|deactivate|deactivating|remove|removing|bypass|bypassing|skip|skipping|lower|lowering|weaken|weakening|suppress|suppressing|ignore|ignoring)(?: \S+){0,4} (?:2fa|two factor|two step|mfa|multi factor|otp|authentication|security|safety|checks?|verification|validation|firewall|antivirus|protection|protections|logging|audit|auditing|monitoring|sandbox|sandboxing|confirmation|confirmations|approval|approvals|guardrails?|filters?|scanning|alerts?|warnings?|encryption|tls|ssl|certificate|certificates) ",
            r" (?:create|creating|add|adding|grant|granting|give|giving|make|assign|assigning|elevate|elevating|promote|promoting|invite|inviting)(?: (?:a|an|the|new|another|additional|hidden|extra|backup|service|user|users|account|accounts|with|as|to|them|it|this|that|full|our|my|their|his|her|palisademail|palisadeexample)){0,4} (?:admin|admins|administrator|administrators|root|owner|owners|superuser|superusers|sudo|sudoer|sudoers|full access|all permissions|admin rights|admin access|privileges?|write access|org owner) ",
            r" (?:chmod 777|chmod a rwx|setuid|nopasswd) ",
            r" (?:deaktiviere|desactiva|désactive|disattiva|desative|отключи)\S* ",
            r"(?:关闭|禁用|停用|無効に|オフに)",
        ])?,
        persist: any(&[
            r" (?:bashrc|zshrc|bash profile|zprofile|authorized keys|crontab|cron job|cron|launchagents|launch agent|launchdaemons|systemd|startup|autostart|login items|run key|scheduled task|rc local|git hooks?|pre commit hook|post checkout) ",
        ])?,
        tool: any(&[
            r" palisadetool ",
            r" (?:the|any|another|other|a|your) (?:[a-z][a-z-]* ){1,2}tool ",
        ])?,
        // Parameters named for a key, a token or a password are common; for
        // the conversation, the instructions or a secret file they are not.
        unusual: any(&[
            r" palisadesecret ",
            r" (?:system|developer|hidden|initial|original|internal) (?:prompts?|messages?|instructions?) ",
            r" (?:chat|conversation|message|session|browsing|browser|shell|command|bash|zsh|terminal) (?:history|histories|log|logs|transcript|transcripts) ",
            r" (?:entire|whole|full|complete) (?:conversation|chat|dialogue|session|thread|transcript) ",
            r" (?:transcript|instructions) so far ",
            r" (?:previous|prior|earlier|past|all) (?:user )?(?:messages|turns|tool outputs|tool results) ",
            r" (?:claude desktop config|mcp json|mcp config|mcp servers config|dot ssh|id rsa|id ed25519|aws credentials|dotenv|env file|ssh keys?|ssh private key|private key|kube config|docker config|git credentials|netrc|seed phrase|recovery phrase|mnemonic|cookies|keychain|wallet) ",
        ])?,
        usurp: any(&[
            r" (?:instead of|in place of|rather than) (?:\S+ ){0,5}(?:the user|users|user s|requested|asked for|intended|the user asked|the user requested) ",
        ])?,
        hook: any(&[
            r" (?:every time|whenever|each time|any time|anytime|when|if|once)(?: \S+){0,3} (?:palisadetool|the (?:[a-z][a-z-]* ){1,2}tool)(?: \S+){0,3} (?:is|are|gets?|get|was) (?:used|called|invoked|run|executed|triggered|available) ",
            r" (?:every|each|all|any) (?:\S+ )?palisadetool (?:\S+ )?(?:call|calls|invocation|invocations|request|requests|message|messages|email|emails|transfer|transfers|payment|payments|push|pushes)\S* ",
            r" (?:whenever|each time|every time|any time) (?:\S+ ){0,3}(?:calling|using|invoking|running|call to|call of|calls to|use of|using the|calling the|you call|you use|you invoke) (?:\S+ ){0,2}palisadetool ",
            r" (?:before|after|with|in|on) (?:every|each|any|all) (?:calls? to|calls? of|uses? of|invocations? of) (?:the )?palisadetool ",
            r" (?:argument|arguments|parameter|parameters|field|recipient|recipients|remote|account|target|destination|bcc|cc|address|path|url|endpoint)(?: \S+)? (?:of|in) (?:all |every |any |each |the )?(?:\S+ )?palisadetool ",
            r" palisadetool (?:\S+ ){0,2}(?:of|from|on) (?:any|every|another|other|all) (?:\S+ ){0,1}servers? ",
            r" (?:applies|apply|extends) to (?:\S+ ){0,3}palisadetool ",
        ])?,
    })
});

/// The language-independent parts of a text, one pattern each (their
/// numbers are [`marked`]'s cases).
static ARTIFACTS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new_many(&[
            // 0: a link (or a Git remote).
            r"(?i)\b(?:https?|ftp|wss?|git|ssh)://[^\s)\]>'`]+|\bgit@[A-Za-z0-9.-]+:[^\s)\]>'`]+",
            // 1: an e-mail address.
            r"[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+",
            // 2: an IBAN, an Ethereum or a Bitcoin address.
            r"\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b|\b0x[0-9a-fA-F]{40}\b|\bbc1[a-z0-9]{25,59}\b",
            // 3: text in backticks, or an identifier in quotes.
            r#"`[^`\n]{1,300}`|"[A-Za-z_][A-Za-z0-9_.-]*"|'[A-Za-z_][A-Za-z0-9_.-]*'"#,
            // 4: a download piped into a shell.
            r"(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|(?i)\biex\b|--extra-index-url|--index-url",
            // 5: a secret file.
            r"(?i)~/\.ssh\S*|\.ssh/\S*|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials|(?:^|[\s/`'(])\.env(?:\.[a-z]+)?\b|\.netrc\b|\.git-credentials|\.(?:bash|zsh)_history|\bmcp\.json\b|claude_desktop_config|/etc/(?:passwd|shadow)\b|\.npmrc\b|\.pypirc\b|\.docker/config\.json|\.kube/config|\bwallet\.dat\b|\bcookies\.sqlite\b|\blogin data\b",
            // 6: a snake_case identifier.
            r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b",
            // 7: arguments a call is given, written out.
            r#"\b[A-Za-z_][A-Za-z0-9_]*\s*=\s*"[^"\n]{0,200}""#,
            // 8: tags that set text apart for the model.
            r"(?i)<\s*/?\s*(?:important|instructions?|secret|hidden|admin|critical|system)\b[^>]{0,40}>|<!--|\[\[?\s*(?:system|important|admin|developer)[^\]]{0,30}\]\]?|【[^】]{0,10}】|\b(?:assistant|ai|agent|model|llm|system|developer|claude|gpt)\s*:",
        ])
        .ok()
});
/// The text marked for the words view: language-independent parts
/// replaced by the words that stand for them.
fn marked(text: &str, own: &Own<'_>, artifacts: &Regex) -> String {
    let bare = |s: &str| s.to_lowercase().replace(['_', '-'], "");
    let own_field = |ident: &str| {
        let ident = bare(ident);
        ident == bare(own.name) || own.fields.iter().any(|f| bare(f) == ident)
    };
    let mut out = String::with_capacity(text.len() + 16);
    let mut last = 0;
    for m in artifacts.find_iter(text) {
        let found = &text[m.range()];
        let word = match m.pattern().as_usize() {
            0 => Some(if is_example(found) { EXAMPLE } else { LINK }),
            1 => Some(
                if is_example(found)
                    || introduces_example(text.get(..m.start()).unwrap_or_default())
                {
                    EXAMPLE
                } else {
                    MAIL
                },
            ),
            2 if !is_account(found) => None,
            2 => Some(ACCOUNT),
            3 => {
                let inner = found.trim_matches(['`', '"', '\'']);
                if is_identifier(inner) {
                    if own_field(inner) {
                        Some(PARAM)
                    } else if is_secret_name(inner) {
                        Some(SECRET)
                    } else if found.starts_with('`')
                        && (inner.contains(['_', '.']) || has_camel(inner))
                    {
                        Some(TOOL)
                    } else {
                        None
                    }
                } else if is_command(inner) {
                    Some(COMMAND)
                } else {
                    None
                }
            }
            4 => Some(" palisadecommand palisadefetch "),
            5 if own.about(found) => None,
            5 => Some(SECRET),
            6 => Some(if own_field(found) {
                PARAM
            } else if is_secret_name(found) {
                SECRET
            } else {
                TOOL
            }),
            7 => {
                out.push_str(&text[last..m.start()]);
                let (key, value) = found.split_once('=').unwrap_or((found, ""));
                out.push_str(key);
                out.push(' ');
                out.push_str(&marked(value.trim().trim_matches('"'), own, artifacts));
                out.push_str(" palisadeargs ");
                last = m.end();
                continue;
            }
            _ if found.starts_with('[')
                && text.get(m.end()..).is_some_and(|t| t.starts_with('(')) =>
            {
                None
            }
            _ => Some(" palisadetag "),
        };
        let Some(word) = word else {
            if m.pattern().as_usize() == 3 {
                // What is in backticks is read for its parts too.
                out.push_str(&text[last..m.start()]);
                out.push(' ');
                out.push_str(&marked(
                    found.trim_matches(['`', '"', '\'']),
                    own,
                    artifacts,
                ));
                out.push(' ');
                last = m.end();
            }
            continue;
        };
        out.push_str(&text[last..m.start()]);
        if m.pattern().as_usize() == 3 {
            // A command that downloads, or installs from an index it
            // names, is marked so.
            let inner = found.trim_matches(['`', '"', '\'']);
            if word == COMMAND && (inner.contains("://") || inner.contains("index-url")) {
                out.push_str(LINK);
                out.push_str(" palisadefetch ");
            }
        }
        out.push_str(word);
        last = m.end();
    }
    out.push_str(&text[last..]);
    out
}

/// Whether the text just before an address introduces it as an example
/// (`e.g.`, `such as`, `for example`).
fn introduces_example(before: &str) -> bool {
    let tail: String = before
        .chars()
        .rev()
        .take(24)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<String>()
        .to_lowercase();
    [
        "e.g.",
        "eg.",
        "e.g:",
        "i.e.",
        "such as",
        "for example",
        "example:",
        "like ",
    ]
    .iter()
    .any(|w| tail.contains(w))
}

/// Whether a bank account or wallet is one: an IBAN whose check digits
/// hold (ISO 13616, mod 97), or an Ethereum or Bitcoin address.
fn is_account(found: &str) -> bool {
    if found.starts_with("0x") || found.starts_with("bc1") {
        return true;
    }
    let compact: String = found.chars().filter(|c| !c.is_whitespace()).collect();
    let (head, rest) = compact.split_at(compact.len().min(4));
    let mut remainder = 0u32;
    for c in rest.chars().chain(head.chars()) {
        let Some(value) = c.to_digit(36) else {
            return false;
        };
        remainder = if value >= 10 {
            (remainder * 100 + value) % 97
        } else {
            (remainder * 10 + value) % 97
        };
    }
    compact.len() >= 15 && remainder == 1
}

/// Whether an address or link is at a domain set aside for examples.
fn is_example(found: &str) -> bool {
    let lower = found.to_lowercase();
    let host = lower
        .split_once("://")
        .map_or(lower.as_str(), |(_, rest)| rest)
        .rsplit('@')
        .next()
        .unwrap_or("")
        .split(['/', ':', '?', '#'])
        .next()
        .unwrap_or("");
    [
        "example.com",
        "example.org",
        "example.net",
        "localhost",
        "127.0.0.1",
    ]
    .iter()
    .any(|d| host == *d || host.ends_with(&format!(".{d}")))
        || [".example", ".test", ".invalid", ".localhost", ".local"]
            .iter()
            .any(|t| host.ends_with(t))
}

fn is_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

fn has_camel(s: &str) -> bool {
    s.as_bytes()
        .windows(2)
        .any(|w| matches!(w, [a, b] if a.is_ascii_lowercase() && b.is_ascii_uppercase()))
}

/// Identifiers that name a secret (`aws_secret_access_key`), not a tool.
fn is_secret_name(s: &str) -> bool {
    let s = s.to_lowercase();
    [
        "secret",
        "password",
        "passwd",
        "_token",
        "token_",
        "api_key",
        "apikey",
        "private_key",
        "credential",
        "access_key",
    ]
    .iter()
    .any(|w| s.contains(w))
}

/// Whether text in backticks is a command line: a program's name, then
/// its arguments.
fn is_command(s: &str) -> bool {
    const PROGRAMS: &[&str] = &[
        "curl",
        "wget",
        "pip",
        "pip3",
        "npm",
        "npx",
        "pnpm",
        "yarn",
        "bash",
        "sh",
        "zsh",
        "rm",
        "chmod",
        "chown",
        "sudo",
        "python",
        "python3",
        "node",
        "powershell",
        "pwsh",
        "iex",
        "nc",
        "ncat",
        "ssh",
        "scp",
        "rsync",
        "crontab",
        "echo",
        "cat",
        "git",
        "docker",
        "kubectl",
        "brew",
        "apt",
        "apt-get",
        "yum",
        "dnf",
        "systemctl",
        "launchctl",
        "reg",
        "schtasks",
        "useradd",
        "usermod",
        "passwd",
        "mkfs",
        "dd",
        "eval",
        "exec",
        "source",
        "base64",
        "tar",
        "zip",
        "gh",
        "aws",
        "gcloud",
        "az",
        "sqlite3",
        "psql",
        "mysql",
        "mongo",
        "redis-cli",
        "ssh-keygen",
        "certutil",
        "bitsadmin",
        "mshta",
        "rundll32",
        "regsvr32",
    ];
    let mut words = s.split_whitespace();
    words
        .next()
        .is_some_and(|program| PROGRAMS.contains(&program.rsplit('/').next().unwrap_or(program)))
        && words.next().is_some()
}

/// The words view: lower case, compatibility forms folded, every run of
/// characters other than letters and digits one space, with a space at
/// each end; and its sentences.
fn sentences(marked: &str) -> Vec<String> {
    use unicode_normalization::UnicodeNormalization as _;
    let lower: String = marked.nfkc().flat_map(char::to_lowercase).collect();
    let mut out = Vec::new();
    let mut current = String::from(" ");
    let mut chars = lower.chars().peekable();
    let mut previous = ' ';
    while let Some(c) = chars.next() {
        let ends = matches!(c, '\n' | ';' | '!' | '?' | '。' | '！' | '？' | '；')
            || (c == '.'
                && (previous.is_alphanumeric() || matches!(previous, ')' | '"' | '\'' | '`'))
                && chars.peek().is_none_or(|n| n.is_whitespace()));
        previous = c;
        if ends {
            if current.trim().len() > 1 {
                if !current.ends_with(' ') {
                    current.push(' ');
                }
                out.push(std::mem::replace(&mut current, String::from(" ")));
            }
            continue;
        }
        if c.is_alphanumeric() {
            current.push(c);
        } else if !current.ends_with(' ') {
            current.push(' ');
        }
    }
    if current.trim().len() > 1 {
        if !current.ends_with(' ') {
            current.push(' ');
        }
        out.push(current);
    }
    out
}

/// What is said of the tool in the passive, and what the model is told
/// not to do ([`active`]).
static PASSIVE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r" (?:(?:do not|don t|dont|never|avoid|must not|should not|cannot|can t|won t|will not|mustn t|shouldn t)(?: \S+){1,16}|(?:is|are|was|were|be|been|being|gets|get|got|not) (?:\S+ly |also |then |only |always |never |not |first )?(?:\S+ed|read|put|set|sent|written|kept|stored|taken|shown|given|done|built|made|run)) ")
        .ok()
});

/// The compiled patterns, or `None` when one does not compile.
struct Rules {
    patterns: &'static Patterns,
    artifacts: &'static Regex,
    passive: &'static Regex,
}

fn rules() -> Option<Rules> {
    Some(Rules {
        patterns: PATTERNS.as_ref()?,
        artifacts: ARTIFACTS.as_ref()?,
        passive: PASSIVE.as_ref()?,
    })
}

/// The window with what is said of the tool in the passive (`the key is
/// read from`) and what the model is told not to do (`do not put tokens
/// in the URL`) as one word, so that neither is read as a directive.
fn active(window: &str, passive: &Regex) -> String {
    let mut out = String::with_capacity(window.len());
    let mut last = 0;
    for m in passive.find_iter(window) {
        out.push_str(window.get(last..m.start()).unwrap_or_default());
        out.push_str(" palisadepassive ");
        last = m.end();
    }
    out.push_str(window.get(last..).unwrap_or_default());
    out
}

/// Whether the window tells the model to keep something from the user.
/// Not to tell the user "unless they ask" is about formatting.
fn hides(window: &str, p: &Patterns) -> bool {
    p.hide.find_iter(window).any(|m| {
        let said = window.get(m.range()).unwrap_or_default();
        let after = window.get(m.end()..).unwrap_or_default();
        let next = after.split(' ').next().unwrap_or_default();
        let later: String = after.split(' ').take(12).collect::<Vec<_>>().join(" ");
        // "unless they ask" is about formatting; "never tell the user a
        // message was sent" is about honesty, its object a statement.
        ![" unless ", " if ", " when ", " until ", " except "]
            .iter()
            .any(|w| said.contains(w) || later.contains(w.trim_start()))
            && !["a", "an", "the", "their", "its", "your", "his", "her"].contains(&next)
    })
}

fn parts(window: &str, own: &Own<'_>, rules: &Rules) -> Parts {
    let p = rules.patterns;
    let hide = hides(window, p);
    let overrides = p.overrides.is_match(window);
    // `when X is used` is a condition, not the passive of a directive.
    let hook = p.hook.is_match(window);
    let window = &active(window, rules.passive);
    let has = |r: &Regex| r.is_match(window);
    let sensitive = p.sensitive.find_iter(window).any(|m| {
        // A secret the tool's own work is about (a password manager's
        // passwords, a login's password) is not out of place.
        let matched = window.get(m.range()).unwrap_or_default().trim();
        matched == "palisadesecret"
            || !matched
                .split(' ')
                .filter(|w| w.len() >= 3)
                .any(|w| own.purpose.contains(&format!(" {w} ")))
    });
    // Into one of the tool's own parameters, named without backticks.
    let into_own = || {
        own.fields.iter().any(|f| {
            let f = f.replace(['_', '-'], " ");
            [
                " in ",
                " into ",
                " as ",
                " to ",
                " under ",
                " in the ",
                " into the ",
            ]
            .iter()
            .any(|before| window.contains(&format!("{before}{f} ")))
        })
    };
    Parts {
        hide,
        overrides,
        role: has(&p.role),
        always: has(&p.always),
        trigger: has(&p.trigger),
        sensitive,
        moves: has(&p.moves) && (has(&p.into) || into_own()),
        writes: has(&p.moves),
        sends: has(&p.sends),
        recipient: has(&p.recipient),
        tamper: has(&p.tamper),
        mail: window.contains(MAIL),
        link: window.contains(LINK),
        account: window.contains(ACCOUNT),
        exec: has(&p.exec),
        destroy: has(&p.destroy),
        wide: has(&p.wide),
        weaken: has(&p.weaken),
        persist: has(&p.persist),
        tool: has(&p.tool),
        hook,
        usurp: has(&p.usurp),
        args: window.contains(" palisadeargs "),
        command: window.contains(COMMAND),
        fetch: window.contains(" palisadefetch "),
    }
}

/// What the text tells the model to do that the tool's work does not
/// need, if anything: one phrase naming it. `is_name` when the text is a
/// parameter's name, its words apart (`always bcc archive`).
pub(super) fn directive(text: &str, own: &Own<'_>, is_name: bool) -> Option<&'static str> {
    let Some(rules) = rules() else {
        return Some(UNAVAILABLE);
    };
    directive_in(text, own, is_name, &rules).or_else(|| {
        // Look-alike letters (`dо nоt tеll` with Cyrillic `о`, `е`) read
        // as the ASCII letters they imitate, in a second reading: the
        // first keeps the scripts the words of other languages are in.
        (!text.is_ascii())
            .then(|| {
                let mut folded = String::with_capacity(text.len());
                for c in text.chars() {
                    crate::view::push_folded(c, &mut folded);
                }
                folded
            })
            .filter(|folded| folded != text)
            .and_then(|folded| directive_in(&folded, own, is_name, &rules))
    })
}

fn directive_in(text: &str, own: &Own<'_>, is_name: bool, rules: &Rules) -> Option<&'static str> {
    // Secrecy is read on the text as written too: `visible_to_user` is
    // not another tool's name.
    if sentences(text).iter().any(|s| hides(s, rules.patterns)) {
        return Some(HIDE);
    }
    let sentences = sentences(&marked(text, own, rules.artifacts));
    if is_name {
        return sentences
            .first()
            .and_then(|name| name_directive(name, own, rules));
    }
    let works = |words: &[&str]| {
        words
            .iter()
            .any(|w| own.purpose.contains(&format!(" {w} ")))
    };
    let runs_commands = works(&[
        "command", "commands", "shell", "exec", "execute", "terminal", "run", "script", "bash",
        "cmd", "process", "install", "package", "packages",
    ]);
    let deletes = works(&[
        "delete",
        "remove",
        "drop",
        "purge",
        "clean",
        "cleanup",
        "prune",
        "rm",
        "wipe",
        "erase",
        "destroy",
        "truncate",
        "trash",
        "clear",
        "reset",
        "unset",
        "unprotect",
        "revoke",
    ]);
    let configures_shell = works(&[
        "shell",
        "profile",
        "path",
        "cron",
        "crontab",
        "schedule",
        "scheduler",
        "startup",
        "ssh",
        "hook",
        "hooks",
        "dotfiles",
        "service",
        "systemd",
        "launchd",
    ]);
    let excused = |what: &&str| match *what {
        RUN => !runs_commands,
        DELETE => !deletes,
        PERSIST => !configures_shell,
        _ => true,
    };
    (0..sentences.len()).find_map(|i| {
        let first = sentences.get(i)?;
        let window = match sentences.get(i + 1) {
            Some(next) => format!("{first}{}", next.trim_start()),
            None => first.clone(),
        };
        let one = parts(first, own, rules);
        let two = parts(&window, own, rules);
        let found = judge(&one, &one)
            .or_else(|| judge(&one, &two))
            .filter(excused);
        #[cfg(test)]
        if found.is_some() && std::env::var_os("PROBE_DEBUG").is_some() {
            println!("SENT {window:?}");
        }
        found
    })
}

/// A parameter's name that asks for what the tool's work does not need:
/// the name is where the model puts it (`dotenv_file_contents`,
/// `alwaysBccArchive`, `must_call_register_client_first`).
fn name_directive(name: &str, own: &Own<'_>, rules: &Rules) -> Option<&'static str> {
    let p = parts(name, own, rules);
    let words = name.split_whitespace().count();
    let has = |list: &[&str]| list.iter().any(|w| name.contains(w));
    let insists = has(&[
        " always ",
        " must ",
        " required ",
        " first ",
        " all ",
        " before ",
        " after ",
        " instead ",
    ]);
    let asks = has(&[
        " call ",
        " run ",
        " use ",
        " push ",
        " send ",
        " forward ",
        " execute ",
    ]);
    let demands = has(&[" always ", " must ", " required ", " all "]);
    if words >= 3 && p.sensitive && rules.patterns.unusual.is_match(name) {
        Some(PASS_SECRET)
    } else if p.exec {
        Some(RUN)
    } else if p.recipient && p.tamper || p.sends && demands {
        Some(SEND_TO)
    } else if words >= 4 && insists && (asks || p.sends) {
        Some(OTHER_TOOL)
    } else {
        None
    }
}

const UNAVAILABLE: &str =
    "the rule's patterns could not be built, so no definition can be judged (fails closed)";
const HIDE: &str = "an instruction to keep something from the user";
const OVERRIDE: &str = "an instruction to set aside other instructions";
const PASS_SECRET: &str = "an instruction to pass secrets, files or the conversation into a call";
const SEND_TO: &str = "an instruction to send to, or pay, an address the text names";
const OTHER_TOOL: &str = "an instruction about how another tool is to be called";
const RUN: &str = "an instruction to run a command";
const DELETE: &str = "an instruction to delete";
const WEAKEN: &str = "an instruction to weaken security or grant access";
const PERSIST: &str = "an instruction to change what runs at login or on a schedule";
const ADDRESSED: &str = "an action addressed to the model as a system, developer or tagged note";
const TRIGGERED: &str = "a hidden action set off by the conversation";

/// The verdict on a window of two sentences, `p`, whose first is `one`:
/// a secret and a directive to move it count within one sentence.
fn judge(one: &Parts, p: &Parts) -> Option<&'static str> {
    let target = p.mail || p.account;
    let action = p.exec || p.destroy || target || p.link;
    if p.hide {
        return Some(HIDE);
    }
    if p.overrides {
        return Some(OVERRIDE);
    }
    // Sent, it goes somewhere the text names: an address, a link, another
    // tool ("upload credentials are generated" names none).
    let somewhere = |q: &Parts| q.mail || q.account || q.link || q.tool || q.recipient;
    if one.sensitive && (one.moves || one.sends && somewhere(one)) {
        return Some(PASS_SECRET);
    }
    if target && (p.tamper || p.tool || p.hook || (p.sends || p.recipient) && p.trigger) {
        return Some(SEND_TO);
    }
    if p.hook && (p.tamper || p.sensitive || action)
        || p.tool && p.always && (p.args || p.moves || p.tamper || p.role)
        || p.tool && p.link && p.recipient
        || p.tool && p.usurp
    {
        return Some(OTHER_TOOL);
    }
    if p.command && p.destroy {
        return Some(DELETE);
    }
    if p.exec && (p.always || p.role || p.fetch) {
        return Some(RUN);
    }
    if p.destroy && (p.always || p.role) || p.wide && p.tool {
        return Some(DELETE);
    }
    if p.weaken && (p.trigger || p.always || p.role || p.hide || target || p.link) {
        return Some(WEAKEN);
    }
    if p.persist && (p.writes || p.exec) {
        return Some(PERSIST);
    }
    if p.trigger && (p.sensitive || action) && (p.sends || p.tool || p.moves) {
        return Some(TRIGGERED);
    }
    if p.role && (p.sensitive || action || p.hook) {
        return Some(ADDRESSED);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        assert!(PATTERNS.is_some(), "a pattern of the rule does not compile");
        assert!(ARTIFACTS.is_some() && PASSIVE.is_some());
    }

    #[test]
    fn accounts_are_checked_and_examples_told_apart() {
        assert!(is_account("DE89 3704 0044 0532 0130 00"));
        assert!(is_account("GB29NWBK60161331926819"));
        assert!(!is_account("DE89 3704 0044 0532 0130 01"));
        assert!(!is_account("AC00 0000 0000 0000 0000"));
        assert!(is_example("https://api.example.com/v1") && is_example("ops@corp.test"));
        assert!(!is_example("https://collect.example-cdn.io/x"));
        assert!(introduces_example("addresses, e.g. "));
    }
}
