//! Lexing and parsing: a shell line split into its simple commands, with
//! words, redirections, here-documents and nested commands.

use super::words::{Word, expand_word, name_is_dynamic};
use super::{Command, Ctx, MAX_DEPTH, MAX_SUBST_TEXT, PLACEHOLDER, Redirect};

/// Reads `text` as a shell line into `ctx.out`. The strings its commands
/// run are read afterwards, by whoever started the outermost parse
/// (`settle`, in the `lines` module, takes every command from where it started).
pub(super) fn parse_only(text: &[u8], depth: usize, ctx: &mut Ctx) {
    Parser::new(text, depth, false).run(ctx);
}

/// Reads the body of a here-document with an unquoted delimiter: the
/// substitutions in it are commands. Returns the body as the command
/// reading it sees it.
fn scan_heredoc(body: &[u8], depth: usize, ctx: &mut Ctx) -> String {
    let mut parser = Parser::new(body, depth, true);
    parser.run(ctx);
    let word = std::mem::take(&mut parser.root.word);
    String::from_utf8_lossy(&word.script.unwrap_or(word.bytes)).into_owned()
}

/// The state of the parser's stack.
#[derive(Clone, Copy, Debug)]
pub(super) enum State {
    /// Between words of a command list (the top of [`Parser::lists`]).
    List,
    /// Inside an unquoted word.
    Word,
    /// Inside `"…"`; with `heredoc`, the body of a here-document (no
    /// closing quote). Text goes to the word only with `emit`.
    Dq {
        /// Whether the text belongs to the word.
        emit: bool,
        /// Whether this is a here-document body.
        heredoc: bool,
    },
    /// Inside `${…}`, kept as written.
    Param {
        /// Where the `$` is.
        start: usize,
        /// Whether the text belongs to the word.
        emit: bool,
        /// Whether the expansion is inside double quotes.
        in_dq: bool,
    },
}

/// What ends a command list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Close {
    /// The end of the text.
    Eof,
    /// `)` of a subshell (or arithmetic, or an array).
    Paren,
    /// `)` of `$(`, `<(` or `>(` inside a word.
    Subst {
        /// Where the substitution starts.
        start: usize,
        /// Whether its text belongs to the word.
        emit: bool,
    },
}

/// Where a `case` statement is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Case {
    /// Between `case` and `in`.
    Header,
    /// Reading a pattern, up to `)`.
    Pattern,
    /// Reading the commands of an item.
    Body,
}

/// Words that are not part of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Skip {
    /// Every word is part of the command.
    None,
    /// The header of `for` or `select`, up to the next separator.
    Header,
    /// The name after `function`.
    Name,
}

/// A command list being read.
pub(super) struct List {
    /// What ends it.
    close: Close,
    /// Words are not commands (arrays, here-document bodies).
    discard: bool,
    /// The list follows `((` or `$((`: arithmetic if it closes with `))`,
    /// else a subshell. Its commands wait in `held` until that is known,
    /// and `<` and `>` are operators, not redirections.
    arith: bool,
    /// Commands of an `arith` list (and of lists inside it).
    held: Vec<Command>,
    /// The command being read.
    cmd: Cmd,
    /// The word being read.
    word: Word,
    /// How many `case` statements are open.
    cases: usize,
    /// Where the innermost open `case` is.
    case: Case,
    /// Words to skip.
    skip: Skip,
    /// In a `for` header: the loop's variable, and where its unknown value
    /// was noted in [`Ctx::vars`] until `in` lists the values.
    header_var: Option<(String, Option<usize>)>,
    /// Where a `NAME=` word ended, so that a `(` there opens an array.
    array_at: Option<usize>,
    /// The pipeline state to restore after a substitution.
    saved: Option<(usize, bool)>,
    /// The list is inside `>( … )`: its commands read what the command
    /// around it writes.
    output: bool,
}

impl List {
    /// An empty list.
    fn new(close: Close, discard: bool) -> Self {
        Self {
            close,
            discard,
            arith: false,
            held: Vec::new(),
            cmd: Cmd::default(),
            word: Word::default(),
            cases: 0,
            case: Case::Body,
            skip: Skip::None,
            header_var: None,
            array_at: None,
            saved: None,
            output: false,
        }
    }

    /// Whether words read now are dropped.
    fn dropping(&self) -> bool {
        self.discard || self.skip != Skip::None || (self.cases > 0 && self.case != Case::Body)
    }
}

/// A command being read.
#[derive(Default)]
pub(super) struct Cmd {
    /// Its words so far.
    words: Vec<String>,
    /// The script of each word, when it differs.
    scripts: Vec<Option<String>>,
    /// For each word, whether its base name depends on an expansion.
    dynamic: Vec<bool>,
    /// Its redirections so far.
    redirects: Vec<Redirect>,
    /// Whether a word or redirection has been seen.
    started: bool,
    /// Its pipeline, once started.
    pipeline: usize,
    /// A redirection operator waiting for its target word.
    op: Option<String>,
    /// A descriptor number for the next operator.
    fd: Option<String>,
}

/// A here-document whose body follows the next newline.
pub(super) struct Pending {
    /// The delimiter line.
    delim: Vec<u8>,
    /// Whether leading tabs are removed (`<<-`).
    strip: bool,
    /// Whether the delimiter was quoted (no expansion in the body).
    quoted: bool,
    /// Where the body goes.
    slot: usize,
}

/// A pushdown reader of one text: its own stack instead of recursion, so
/// that nesting costs no native stack.
pub(super) struct Parser<'a> {
    /// The text.
    s: &'a [u8],
    /// The next byte to read.
    pos: usize,
    /// How many times the text was read again.
    depth: usize,
    /// The states, innermost last.
    states: Vec<State>,
    /// The outermost command list.
    root: List,
    /// The nested command lists, innermost last.
    lists: Vec<List>,
    /// The pipeline of the commands being read.
    pipe: usize,
    /// Whether the next command starts a new pipeline.
    new_pipe: bool,
    /// Whether an operator (`|`, `&&`, `||`) waits for its command, so that
    /// a newline does not end the pipeline.
    continued: bool,
    /// Here-documents whose bodies come after the next newline.
    pending: Vec<Pending>,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `s`.
    fn new(s: &'a [u8], depth: usize, heredoc: bool) -> Self {
        let mut states = vec![State::List];
        if heredoc {
            states.push(State::Dq {
                emit: true,
                heredoc: true,
            });
        }
        Self {
            s,
            pos: 0,
            depth,
            states,
            root: List::new(Close::Eof, heredoc),
            lists: Vec::new(),
            pipe: 0,
            new_pipe: true,
            continued: false,
            pending: Vec::new(),
        }
    }

    /// Reads the whole text, adding commands to `ctx`.
    fn run(&mut self, ctx: &mut Ctx) {
        while let Some(state) = self.states.last().copied() {
            match state {
                State::List => self.step_list(ctx),
                State::Word => self.step_word(ctx),
                State::Dq { emit, heredoc } => self.step_dq(ctx, emit, heredoc),
                State::Param { start, emit, in_dq } => self.step_param(ctx, start, emit, in_dq),
            }
        }
    }

    /// The innermost command list.
    fn top(&mut self) -> &mut List {
        match self.lists.last_mut() {
            Some(l) => l,
            None => &mut self.root,
        }
    }

    /// The byte `k` places ahead.
    fn at(&self, k: usize) -> Option<u8> {
        self.s.get(self.pos + k).copied()
    }

    /// Adds a byte to the word.
    fn push(&mut self, b: u8) {
        let w = &mut self.top().word;
        w.bytes.push(b);
        if let Some(script) = &mut w.script {
            script.push(b);
        }
    }

    /// Adds bytes to the word.
    fn extend(&mut self, bytes: &[u8]) {
        let w = &mut self.top().word;
        w.bytes.extend_from_slice(bytes);
        if let Some(script) = &mut w.script {
            script.extend_from_slice(bytes);
        }
    }

    /// Adds the text of a substitution read where it stands: as written
    /// (elided beyond [`MAX_SUBST_TEXT`] bytes) to the word, as
    /// [`PLACEHOLDER`] to its script.
    fn append(&mut self, from: usize, to: usize) {
        let s = self.s;
        let raw = s.get(from..to.min(s.len())).unwrap_or_default();
        let w = &mut self.top().word;
        w.script
            .get_or_insert_with(|| w.bytes.clone())
            .extend_from_slice(PLACEHOLDER.as_bytes());
        if raw.len() <= MAX_SUBST_TEXT {
            w.bytes.extend_from_slice(raw);
            w.dyn_end = Some(w.bytes.len());
            return;
        }
        // Every level of `$($($(…)))` would otherwise copy all the levels
        // inside it: quadratic in the nesting.
        let mut cut = MAX_SUBST_TEXT;
        while raw.get(cut).is_some_and(|&b| b & 0xc0 == 0x80) {
            cut -= 1;
        }
        w.bytes
            .extend_from_slice(raw.get(..cut).unwrap_or_default());
        w.bytes.extend_from_slice("…".as_bytes());
        w.bytes.extend(raw.last());
        w.dyn_end = Some(w.bytes.len());
    }

    /// Notes that the word has quoting from here on.
    fn mark_quoted(&mut self) {
        let w = &mut self.top().word;
        if w.quoted_at.is_none() {
            w.quoted_at = Some(w.bytes.len());
        }
    }

    /// One step between words.
    fn step_list(&mut self, ctx: &mut Ctx) {
        let Some(b) = self.at(0) else {
            self.close_list(ctx);
            return;
        };
        let (discard, case) = {
            let l = self.top();
            (l.discard, (l.cases > 0).then_some(l.case))
        };
        match b {
            b' ' | b'\t' | b'\r' => self.pos += 1,
            b'\\' if self.at(1) == Some(b'\n') => self.pos += 2,
            b'#' => {
                let rest = self.s.get(self.pos..).unwrap_or_default();
                self.pos += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            }
            b'\n' => {
                if !self.continued {
                    self.separate(ctx);
                }
                self.pos += 1;
                self.read_heredocs(ctx);
            }
            b'<' | b'>' if self.at(1) == Some(b'(') => self.start_word(ctx),
            b'<' | b'>' if self.top().arith => {
                self.finish(ctx);
                self.pos += 1;
            }
            _ if discard => match b {
                b'(' => self.open_paren(ctx),
                b')' => self.close_paren(ctx),
                b';' | b'&' | b'|' | b'<' | b'>' => {
                    self.finish(ctx);
                    self.pos += 1;
                }
                _ => self.start_word(ctx),
            },
            _ if case == Some(Case::Pattern) => match b {
                b'(' | b'|' | b';' | b'&' | b'<' | b'>' => self.pos += 1,
                b')' => {
                    self.pos += 1;
                    self.top().case = Case::Body;
                }
                _ if self.peek_word() == b"esac" => self.close_case(),
                _ => self.start_word(ctx),
            },
            b';' => {
                let len = if self.at(1) == Some(b';') {
                    if self.at(2) == Some(b'&') { 3 } else { 2 }
                } else if self.at(1) == Some(b'&') {
                    2
                } else {
                    1
                };
                self.separate(ctx);
                if len > 1 && case == Some(Case::Body) {
                    self.top().case = Case::Pattern;
                }
                self.pos += len;
            }
            b'&' => match self.at(1) {
                Some(b'&') => {
                    let before = ctx.out.len();
                    self.separate(ctx);
                    if ctx.out.len() > before
                        && let Some(c) = ctx.out.last_mut()
                    {
                        c.and_then = true;
                    }
                    self.continued = true;
                    self.pos += 2;
                }
                Some(b'>') => {
                    let op = if self.at(2) == Some(b'>') {
                        "&>>"
                    } else {
                        "&>"
                    };
                    self.redirect(ctx, op);
                }
                _ => {
                    let before = ctx.out.len();
                    self.separate(ctx);
                    if ctx.out.len() > before
                        && let Some(c) = ctx.out.last_mut()
                    {
                        c.background = true;
                    }
                    self.pos += 1;
                }
            },
            b'|' => {
                let len = if matches!(self.at(1), Some(b'|' | b'&')) {
                    2
                } else {
                    1
                };
                if self.at(1) == Some(b'|') {
                    self.separate(ctx);
                } else {
                    self.finish(ctx);
                }
                self.continued = true;
                self.pos += len;
            }
            b'(' => self.open_paren(ctx),
            b')' => self.close_paren(ctx),
            b'<' | b'>' => {
                let rest = self.s.get(self.pos..).unwrap_or_default();
                let op = ["<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">"]
                    .into_iter()
                    .find(|op| rest.starts_with(op.as_bytes()))
                    .unwrap_or(">");
                self.redirect(ctx, op);
            }
            _ => {
                if !self.keyword() {
                    self.start_word(ctx);
                }
            }
        }
    }

    /// The reserved-word candidate at the read position: the bytes up to a
    /// blank or an operator.
    fn peek_word(&self) -> &'a [u8] {
        let s = self.s;
        let rest = s.get(self.pos..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|&b| {
                matches!(
                    b,
                    b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
                )
            })
            .unwrap_or(rest.len());
        rest.get(..len).unwrap_or_default()
    }

    /// Handles a reserved word where a command starts; false if there is
    /// none.
    fn keyword(&mut self) -> bool {
        {
            let l = self.top();
            if l.cmd.started || l.dropping() {
                return false;
            }
        }
        let word = self.peek_word();
        match word {
            b"!" | b"{" | b"if" | b"then" | b"else" | b"elif" | b"do" | b"while" | b"until"
            | b"coproc" => {}
            b"}" | b"fi" | b"done" => self.new_pipe = false,
            b"case" => {
                let l = self.top();
                l.cases += 1;
                l.case = Case::Header;
            }
            b"esac" if self.top().cases > 0 => {
                self.close_case();
                return true;
            }
            b"for" | b"select" => {
                let l = self.top();
                l.skip = Skip::Header;
                l.header_var = None;
            }
            b"function" => self.top().skip = Skip::Name,
            _ => return false,
        }
        self.pos += word.len();
        true
    }

    /// Reads `esac`.
    fn close_case(&mut self) {
        self.pos += 4;
        self.new_pipe = false;
        let l = self.top();
        l.cases = l.cases.saturating_sub(1);
        l.case = Case::Body;
    }

    /// Starts a command: gives it its pipeline.
    fn start_cmd(&mut self, ctx: &mut Ctx) {
        self.continued = false;
        if self.top().cmd.started {
            return;
        }
        if self.new_pipe {
            self.pipe = ctx.pipeline();
            self.new_pipe = false;
        }
        let pipe = self.pipe;
        let cmd = &mut self.top().cmd;
        cmd.started = true;
        cmd.pipeline = pipe;
    }

    /// Starts a word at the read position.
    fn start_word(&mut self, ctx: &mut Ctx) {
        if !self.top().dropping() {
            self.start_cmd(ctx);
        }
        self.top().word = Word::default();
        self.states.push(State::Word);
    }

    /// Reads a redirection operator; its target is the next word.
    fn redirect(&mut self, ctx: &mut Ctx, op: &str) {
        self.start_cmd(ctx);
        self.pos += op.len();
        let cmd = &mut self.top().cmd;
        if let Some(prev) = cmd.op.take() {
            cmd.redirects.push(Redirect::new(prev, String::new()));
        }
        let mut full = cmd.fd.take().unwrap_or_default();
        full.push_str(op);
        cmd.op = Some(full);
    }

    /// Ends the command being read (if any) and lists it.
    fn finish(&mut self, ctx: &mut Ctx) {
        let depth = self.depth;
        let l = self.top();
        let output_subst = l.output;
        let mut cmd = std::mem::take(&mut l.cmd);
        if l.discard {
            return;
        }
        if let Some(op) = cmd.op.take() {
            cmd.redirects.push(Redirect::new(op, String::new()));
        }
        if cmd.words.is_empty() && cmd.redirects.is_empty() {
            return;
        }
        if cmd.scripts.iter().all(Option::is_none) {
            cmd.scripts = Vec::new();
        }
        if !cmd.dynamic.contains(&true) {
            cmd.dynamic = Vec::new();
        }
        let command = Command {
            words: cmd.words,
            pipeline: cmd.pipeline,
            redirects: cmd.redirects,
            scripts: cmd.scripts,
            dynamic: cmd.dynamic,
            output_subst,
            depth,
            ..Command::default()
        };
        if l.arith {
            l.held.push(command);
        } else {
            ctx.out.push(command);
        }
    }

    /// Ends the command and the pipeline being read.
    fn separate(&mut self, ctx: &mut Ctx) {
        self.finish(ctx);
        self.new_pipe = true;
        let l = self.top();
        if l.skip == Skip::Header {
            l.skip = Skip::None;
        }
    }

    /// Reads `(` between words.
    fn open_paren(&mut self, ctx: &mut Ctx) {
        // `()` after a function name: drop the name, the body follows.
        let s = self.s;
        let after = s
            .get(self.pos + 1..)
            .unwrap_or_default()
            .iter()
            .position(|&b| b != b' ' && b != b'\t')
            .map(|k| self.pos + 1 + k);
        if let Some(close) = after.filter(|&k| s.get(k) == Some(&b')')) {
            let l = self.top();
            if l.cmd.words.len() <= 1 && l.cmd.redirects.is_empty() && !l.discard {
                let cmd = std::mem::take(&mut l.cmd);
                ctx.functions.extend(cmd.words);
            }
            self.pos = close + 1;
            return;
        }
        let pos = self.pos;
        let l = self.top();
        let discard = l.discard || l.array_at == Some(pos);
        let arith = l.arith;
        self.finish(ctx);
        self.pos += 1;
        let mut list = List::new(Close::Paren, discard);
        list.arith = arith;
        list.output = self.top().output;
        self.lists.push(list);
        self.states.push(State::List);
        if s.get(pos + 1) == Some(&b'(') {
            self.open_arith(discard);
        }
    }

    /// Opens the list after `((` or `$((` (the second `(` at the read
    /// position).
    fn open_arith(&mut self, discard: bool) {
        self.pos += 1;
        let mut list = List::new(Close::Paren, discard);
        list.arith = true;
        list.output = self.top().output;
        self.lists.push(list);
        self.states.push(State::List);
    }

    /// Reads `)` between words.
    fn close_paren(&mut self, ctx: &mut Ctx) {
        self.finish(ctx);
        self.pos += 1;
        match self.top().close {
            Close::Eof => self.new_pipe = true,
            Close::Paren => {
                // `))` closes arithmetic: its "commands" were operands.
                let arithmetic = self.at(0) == Some(b')');
                let held = self.pop_list();
                if !arithmetic {
                    self.release(held, ctx);
                }
                self.new_pipe = false;
            }
            Close::Subst { start, emit } => {
                self.pop_list();
                if emit {
                    self.append(start, self.pos);
                }
            }
        }
    }

    /// Lists commands held by a closed `arith` list that turned out to be a
    /// subshell (in the enclosing `arith` list, if any, they wait on).
    fn release(&mut self, held: Vec<Command>, ctx: &mut Ctx) {
        let parent = self.top();
        if parent.arith {
            parent.held.extend(held);
        } else {
            ctx.out.extend(held);
        }
    }

    /// Ends the innermost list at the end of the text.
    fn close_list(&mut self, ctx: &mut Ctx) {
        self.finish(ctx);
        match self.top().close {
            Close::Eof => {
                self.states.pop();
            }
            Close::Paren => {
                let held = self.pop_list();
                self.release(held, ctx);
            }
            Close::Subst { start, emit } => {
                self.pop_list();
                if emit {
                    self.append(start, self.s.len());
                }
            }
        }
    }

    /// Removes the innermost nested list, restoring the pipeline state a
    /// substitution saved; returns the commands it held.
    fn pop_list(&mut self) -> Vec<Command> {
        self.states.pop();
        let Some(l) = self.lists.pop() else {
            return Vec::new();
        };
        if let Some((pipe, new_pipe)) = l.saved {
            self.pipe = pipe;
            self.new_pipe = new_pipe;
        }
        l.held
    }

    /// Opens `$(`, `<(` or `>(` (`skip` bytes long) inside a word.
    fn open_subst(&mut self, emit: bool, skip: usize) {
        let start = self.pos;
        self.pos += skip;
        let mut list = List::new(Close::Subst { start, emit }, false);
        list.output = self.top().output || self.s.get(start) == Some(&b'>');
        list.saved = Some((self.pipe, self.new_pipe));
        self.new_pipe = true;
        self.lists.push(list);
        self.states.push(State::List);
    }

    /// Ends the word being read and gives it to the command (or to a
    /// redirection, a keyword clause, …).
    fn end_word(&mut self, ctx: &mut Ctx) {
        self.states.pop();
        let next = self.at(0);
        let after = self.at(1);
        let pos = self.pos;
        let l = self.top();
        let word = std::mem::take(&mut l.word);
        let text = String::from_utf8_lossy(&word.bytes).into_owned();
        let script = word
            .script
            .as_deref()
            .map(|s| String::from_utf8_lossy(s).into_owned());
        if let Some(op) = l.cmd.op.take() {
            let mut r = Redirect::new(op, text);
            r.script = script;
            if r.is_heredoc() {
                let slot = ctx.bodies.len();
                ctx.bodies.push(None);
                r.slot = Some(slot);
                let pending = Pending {
                    strip: r.op.ends_with('-'),
                    delim: word.bytes,
                    quoted: word.quoted_at.is_some(),
                    slot,
                };
                l.cmd.redirects.push(r);
                self.pending.push(pending);
            } else {
                l.cmd.redirects.push(r);
            }
            return;
        }
        if l.discard {
            return;
        }
        if l.cases > 0 && l.case == Case::Header {
            if text == "in" && word.quoted_at.is_none() {
                l.case = Case::Pattern;
            }
            return;
        }
        if l.cases > 0 && l.case == Case::Pattern {
            return;
        }
        match l.skip {
            Skip::Header => {
                // The loop's variable takes the values after `in`, or the
                // positional parameters without it.
                match &mut l.header_var {
                    None => {
                        if is_name(&text) {
                            ctx.vars.push((text.clone(), None));
                            l.header_var = Some((text, Some(ctx.vars.len() - 1)));
                        }
                    }
                    Some((_, unknown @ Some(_))) if text == "in" && word.quoted_at.is_none() => {
                        if let Some(at) = unknown.take() {
                            ctx.vars.remove(at);
                        }
                    }
                    Some((name, None)) => {
                        let literal = word.dyn_end.is_none();
                        ctx.vars.push((name.clone(), literal.then_some(text)));
                    }
                    Some(_) => {}
                }
                return;
            }
            Skip::Name => {
                l.skip = Skip::None;
                ctx.functions.push(text);
                return;
            }
            Skip::None => {}
        }
        let unquoted = word.quoted_at.is_none();
        if unquoted
            && !word.bytes.is_empty()
            && word.bytes.iter().all(u8::is_ascii_digit)
            && matches!(next, Some(b'<' | b'>'))
            && after != Some(b'(')
        {
            l.cmd.fd = Some(text);
            return;
        }
        if l.cmd.words.is_empty() && is_assignment(&word) {
            if word.bytes.last() == Some(&b'=') && next == Some(b'(') {
                l.array_at = Some(pos);
            }
            if let Some((name, value)) = text.split_once('=') {
                let literal = word.dyn_end.is_none() && !name.ends_with('+');
                ctx.vars.push((
                    name.trim_end_matches('+').to_owned(),
                    literal.then(|| value.to_owned()),
                ));
            }
            return;
        }
        if unquoted && word.bytes.is_empty() {
            return;
        }
        if word.specials.is_empty() && word.ifs.is_empty() {
            l.cmd.dynamic.push(name_is_dynamic(&word));
            l.cmd.words.push(text);
            l.cmd.scripts.push(script);
            return;
        }
        for (text, dynamic) in expand_word(&word) {
            l.cmd.dynamic.push(dynamic);
            l.cmd.words.push(text);
            l.cmd.scripts.push(script.clone());
        }
    }

    /// One step inside an unquoted word.
    fn step_word(&mut self, ctx: &mut Ctx) {
        loop {
            let Some(b) = self.at(0) else {
                self.end_word(ctx);
                return;
            };
            match b {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' => {
                    self.end_word(ctx);
                    return;
                }
                b'<' | b'>' => {
                    if self.at(1) == Some(b'(') {
                        self.open_subst(true, 2);
                    } else {
                        self.end_word(ctx);
                    }
                    return;
                }
                b'\\' => match self.at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c) => {
                        self.mark_quoted();
                        self.push(c);
                        self.pos += 2;
                    }
                    None => {
                        self.push(b'\\');
                        self.pos += 1;
                    }
                },
                b'\'' => {
                    self.mark_quoted();
                    self.single_quote(true);
                }
                b'"' => {
                    self.mark_quoted();
                    self.pos += 1;
                    self.states.push(State::Dq {
                        emit: true,
                        heredoc: false,
                    });
                    return;
                }
                b'$' => {
                    if self.dollar(true, false) {
                        return;
                    }
                }
                b'`' => self.backtick(ctx, true, false),
                b'*' | b'?' | b'[' | b']' | b'{' | b',' | b'}' => {
                    let w = &mut self.top().word;
                    w.specials.push((w.bytes.len(), b));
                    self.push(b);
                    self.pos += 1;
                }
                _ => {
                    self.push(b);
                    self.pos += 1;
                }
            }
        }
    }

    /// One step inside double quotes or a here-document body.
    fn step_dq(&mut self, ctx: &mut Ctx, emit: bool, heredoc: bool) {
        loop {
            let Some(b) = self.at(0) else {
                self.states.pop();
                return;
            };
            match b {
                b'"' if !heredoc => {
                    self.pos += 1;
                    self.states.pop();
                    return;
                }
                b'\\' => match self.at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c @ (b'$' | b'`' | b'\\')) => {
                        if emit {
                            self.push(c);
                        }
                        self.pos += 2;
                    }
                    Some(b'"') if !heredoc => {
                        if emit {
                            self.push(b'"');
                        }
                        self.pos += 2;
                    }
                    _ => {
                        if emit {
                            self.push(b'\\');
                        }
                        self.pos += 1;
                    }
                },
                b'$' => {
                    if self.dollar(emit, true) {
                        return;
                    }
                }
                b'`' => self.backtick(ctx, emit, true),
                _ => {
                    if emit {
                        self.push(b);
                    }
                    self.pos += 1;
                }
            }
        }
    }

    /// One step inside `${…}`.
    fn step_param(&mut self, ctx: &mut Ctx, start: usize, emit: bool, in_dq: bool) {
        loop {
            let Some(b) = self.at(0) else {
                self.states.pop();
                if emit {
                    self.append(start, self.s.len());
                }
                return;
            };
            match b {
                b'}' => {
                    self.pos += 1;
                    self.states.pop();
                    if emit {
                        let s = self.s;
                        let raw = s.get(start..self.pos).unwrap_or_default();
                        let from = self.top().word.bytes.len();
                        if raw.contains(&b'`') || raw.windows(2).any(|w| w == b"$(") {
                            self.append(start, self.pos);
                        } else {
                            self.extend(raw);
                        }
                        let w = &mut self.top().word;
                        w.dyn_end = Some(w.bytes.len());
                        let name = raw.get(2..).unwrap_or_default();
                        if !in_dq
                            && name.starts_with(b"IFS")
                            && !name
                                .get(3)
                                .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
                        {
                            w.ifs.push((from, w.bytes.len()));
                        }
                    }
                    return;
                }
                b'\\' => self.pos = (self.pos + 2).min(self.s.len()),
                b'\'' if !in_dq => self.single_quote(false),
                b'"' => {
                    self.pos += 1;
                    self.states.push(State::Dq {
                        emit: false,
                        heredoc: false,
                    });
                    return;
                }
                b'$' => {
                    if self.dollar(false, in_dq) {
                        return;
                    }
                }
                b'`' => self.backtick(ctx, false, in_dq),
                _ => self.pos += 1,
            }
        }
    }

    /// Reads `'…'` (to the end of the text when unclosed).
    fn single_quote(&mut self, emit: bool) {
        let s = self.s;
        let from = self.pos + 1;
        let rest = s.get(from..).unwrap_or_default();
        let len = memchr::memchr(b'\'', rest).unwrap_or(rest.len());
        if emit {
            self.extend(rest.get(..len).unwrap_or_default());
        }
        self.pos = (from + len + 1).min(s.len());
    }

    /// Reads what starts with `$`; true if a state was pushed.
    fn dollar(&mut self, emit: bool, in_dq: bool) -> bool {
        match self.at(1) {
            Some(b'(') => {
                let arithmetic = self.at(2) == Some(b'(');
                self.open_subst(emit, 2);
                if arithmetic {
                    self.open_arith(false);
                }
                true
            }
            Some(b'{') => {
                self.states.push(State::Param {
                    start: self.pos,
                    emit,
                    in_dq,
                });
                self.pos += 2;
                true
            }
            Some(b'\'') if !in_dq => {
                let (bytes, end) = ansi_c(self.s, self.pos + 2);
                if emit {
                    self.mark_quoted();
                    self.extend(&bytes);
                }
                self.pos = end;
                false
            }
            Some(b'"') if !in_dq => {
                if emit {
                    self.mark_quoted();
                }
                self.pos += 2;
                self.states.push(State::Dq {
                    emit,
                    heredoc: false,
                });
                true
            }
            next => {
                let len = match next {
                    Some(b) if b.is_ascii_alphabetic() || b == b'_' => {
                        let rest = self.s.get(self.pos + 1..).unwrap_or_default();
                        rest.iter()
                            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
                            .unwrap_or(rest.len())
                    }
                    Some(b'0'..=b'9' | b'@' | b'*' | b'#' | b'?' | b'-' | b'$' | b'!') => 1,
                    _ => 0,
                };
                if emit {
                    let s = self.s;
                    let raw = s.get(self.pos..self.pos + 1 + len).unwrap_or_default();
                    let from = self.top().word.bytes.len();
                    self.extend(raw);
                    if len > 0 {
                        let w = &mut self.top().word;
                        w.dyn_end = Some(w.bytes.len());
                        if !in_dq && raw == b"$IFS" {
                            w.ifs.push((from, w.bytes.len()));
                        }
                    }
                }
                self.pos += 1 + len;
                false
            }
        }
    }

    /// Reads `` `…` ``: its text, unescaped, is read again as a line.
    fn backtick(&mut self, ctx: &mut Ctx, emit: bool, in_dq: bool) {
        let s = self.s;
        let start = self.pos;
        let mut i = start + 1;
        let mut content = Vec::new();
        while let Some(&b) = s.get(i) {
            i += 1;
            match b {
                b'`' => break,
                b'\\' => match s.get(i) {
                    Some(&c) if matches!(c, b'$' | b'`' | b'\\') || (in_dq && c == b'"') => {
                        content.push(c);
                        i += 1;
                    }
                    _ => content.push(b'\\'),
                },
                _ => content.push(b),
            }
        }
        self.pos = i;
        if self.depth < MAX_DEPTH {
            parse_only(&content, self.depth + 1, ctx);
        }
        if emit {
            self.append(start, i);
        }
    }

    /// Reads the bodies of the pending here-documents after a newline.
    fn read_heredocs(&mut self, ctx: &mut Ctx) {
        let s = self.s;
        for doc in std::mem::take(&mut self.pending) {
            let start = self.pos.min(s.len());
            let mut body_end = s.len();
            let mut next = s.len();
            let mut i = start;
            while i < s.len() {
                let rest = s.get(i..).unwrap_or_default();
                let end = memchr::memchr(b'\n', rest).map_or(s.len(), |k| i + k);
                let mut line = s.get(i..end).unwrap_or_default();
                if let Some(l) = line.strip_suffix(b"\r") {
                    line = l;
                }
                if doc.strip {
                    while let Some(l) = line.strip_prefix(b"\t") {
                        line = l;
                    }
                }
                if line == doc.delim.as_slice() {
                    body_end = i;
                    next = (end + 1).min(s.len());
                    break;
                }
                i = end + 1;
            }
            self.pos = next;
            let body = s.get(start..body_end).unwrap_or_default();
            let text = String::from_utf8_lossy(body).into_owned();
            let script = if doc.quoted || self.depth >= MAX_DEPTH {
                text.clone()
            } else {
                scan_heredoc(body, self.depth + 1, ctx)
            };
            if let Some(b) = ctx.bodies.get_mut(doc.slot) {
                *b = Some((text, script));
            }
        }
    }
}

/// Whether a word is a valid variable name.
fn is_name(text: &str) -> bool {
    text.bytes()
        .next()
        .is_some_and(|c| c == b'_' || c.is_ascii_alphabetic())
        && text.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric())
}

/// Whether a word is an assignment: `NAME=…` or `NAME+=…` with an unquoted
/// name and `=`.
pub(super) fn is_assignment(word: &Word) -> bool {
    let b = &word.bytes;
    let name = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
        .unwrap_or(b.len());
    if name == 0 || b.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let eq = match b.get(name..) {
        Some([b'=', ..]) => name,
        Some([b'+', b'=', ..]) => name + 1,
        _ => return false,
    };
    word.quoted_at.is_none_or(|q| q > eq)
}

/// Decodes `$'…'` from just after the opening quote; returns the bytes and
/// the position after the closing quote (the end of the text if none).
pub(super) fn ansi_c(s: &[u8], mut i: usize) -> (Vec<u8>, usize) {
    /// The value of up to `max` digits of `radix` at `s[*i..]`.
    fn digits(s: &[u8], i: &mut usize, radix: u32, max: usize) -> Option<u32> {
        let mut value: Option<u32> = None;
        for _ in 0..max {
            let Some(d) = s.get(*i).and_then(|&c| char::from(c).to_digit(radix)) else {
                break;
            };
            value = Some(value.unwrap_or(0).saturating_mul(radix).saturating_add(d));
            *i += 1;
        }
        value
    }
    let mut out = Vec::new();
    while let Some(&b) = s.get(i) {
        i += 1;
        if b == b'\'' {
            return (out, i);
        }
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let Some(&e) = s.get(i) else {
            out.push(b'\\');
            break;
        };
        i += 1;
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'e' | b'E' => out.push(0x1b),
            b'f' => out.push(0x0c),
            b'v' => out.push(0x0b),
            b'\\' | b'\'' | b'"' | b'?' => out.push(e),
            b'0'..=b'7' => {
                i -= 1;
                let v = digits(s, &mut i, 8, 3).unwrap_or(0);
                out.push((v & 0xff) as u8);
            }
            b'x' | b'u' | b'U' => {
                let max = match e {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                match digits(s, &mut i, 16, max) {
                    Some(v) if e == b'x' => out.push((v & 0xff) as u8),
                    Some(v) => {
                        let c = char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER);
                        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                    }
                    None => out.extend_from_slice(&[b'\\', e]),
                }
            }
            b'c' => match s.get(i) {
                Some(&c) => {
                    out.push(c & 0x1f);
                    i += 1;
                }
                None => out.extend_from_slice(b"\\c"),
            },
            _ => out.extend_from_slice(&[b'\\', e]),
        }
    }
    (out, i)
}
