"""Every command the bot answers, one entry each: plain data that Telegram's handlers and menu,
the console, the help text and the usage replies are all built from.

Each adapter wires the commands itself (bot/telegram/commands.py, bot/console/actions.py): a write
command goes through the one write path, a read command through the one read path, and any other is
found there by its name. Adding a command: its line here, and either its parser (bot/commands/
calls.py, a write) or its query (bot/app/queries.py QUERIES, a read) with its text in bot/texts/.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from types import MappingProxyType
from typing import Final


@dataclass(frozen=True)
class Command:
    """One command: `name` and `aliases` without the slash.

    `does` is its line in the help (None: the help tells of it in prose, as it does of joining and
    leaving); `example` is the help's example, and `usage_example` the one a reply to a command
    that could not be read shows (the help's when None). `menu` is its description in Telegram's
    command menu (None: not in the menu). `writes`: a preview through the same tool call as the
    agent's (bot/commands/calls.py builds it). `essential`: one of the commands a short
    line names when the model is down (contract §6)."""

    name: str
    form: str
    does: str | None
    example: str
    menu: str | None = None
    aliases: tuple[str, ...] = ()
    usage_example: str | None = None
    writes: bool = False
    reads: bool = False  # with `writes` too: without arguments it reads (/divisao shows the rule)
    essential: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def usage(self) -> str:
        """How the command is written, for a reply to one that could not be read."""
        return f"Use: {self.form}\nEx.: {self.usage_example or self.example}"


def _write(name: str, form: str, does: str, example: str, menu: str, *, essential: bool = False) -> Command:
    return Command(name, form, does, example, menu=menu, writes=True, essential=essential)


COMMANDS: Final[Sequence[Command]] = (
    Command("start", "/start", None, "/start"),
    _write("gasto", "/gasto <valor> <despesa> [AAAA-MM] [por <membro>] [pessoal] [no <cartão>] [em <N>x]",
           "registra um gasto no mês, pago por você (ou por quem você disser), dividido pela regra da casa "
           "(pessoal: só seu); no cartão, na fatura em que a compra cai, parcelado se quiser",
           "/gasto 37,90 mercado", "Registrar um gasto: /gasto 37,90 mercado", essential=True),
    _write("despesa", "/despesa <nome> <valor> [dia <1-31>]", "cadastra uma despesa mensal",
           "/despesa Aluguel 2.500 dia 10", "Cadastrar despesa: /despesa Aluguel 2.500 dia 10", essential=True),
    _write("ajuste", "/ajuste <despesa> <valor>", "muda o valor previsto de uma despesa", "/ajuste mercado 1.800",
           "Mudar o valor esperado: /ajuste mercado 1.800", essential=True),
    _write("aporte", "/aporte <valor> <meta>", "guarda dinheiro numa meta, pago por você, com a data de hoje",
           "/aporte 500 Amsterdam", "Aportar numa meta: /aporte 500 Amsterdam", essential=True),
    _write("meta", "/meta <nome> <valor> [moeda] [até AAAA-MM-DD]", "cria uma meta com todos da casa",
           "/meta Lua de mel 6000 EUR até 2028-06-01", "Criar meta: /meta Viagem 6000 EUR até 2028-06-01",
           essential=True),
    Command("resumo", "/resumo [AAAA-MM]", "previsto e gasto por despesa no mês", "/resumo",
            menu="Resumo do mês", usage_example="/resumo 2026-05", reads=True, essential=True),
    Command("metas", "/metas", "quanto cada meta já tem e quanto falta por mês", "/metas",
            menu="Como estão as metas", reads=True, essential=True),
    Command("grafico", "/grafico [AAAA-MM]", "o gráfico do mês: previsto x gasto e as metas", "/grafico",
            menu="Gráfico do mês: /grafico 2026-06"),
    Command("lembretes", "/lembretes on|off", "liga ou desliga os avisos na véspera de cada vencimento",
            "/lembretes off", menu="Avisos de vencimento: /lembretes on|off"),
    Command("saldo", "/saldo [AAAA-MM]", "quem deve quanto a quem (de sempre, ou o movimento do mês)",
            "/saldo", menu="Quem deve a quem", usage_example="/saldo 2026-06", reads=True),
    _write("acerto", "/acerto [valor]", "registra que quem deve pagou (tudo, ou o valor dito), com o Pix "
           "copia e cola", "/acerto", "Acertar as contas: /acerto [valor]"),
    Command("divisao", "/divisao [igual | renda | <membro> <p> <membro> <p>]",
            "mostra ou muda como os gastos da casa são divididos", "/divisao Ana 60 Bruno 40",
            menu="Divisão dos gastos: /divisao igual", usage_example="/divisao Ana 60 Bruno 40", writes=True,
            reads=True),
    _write("renda", "/renda <valor>", "informa a sua renda mensal (a divisão pela renda usa)", "/renda 7.000",
           "Sua renda mensal: /renda 7.000"),
    _write("pix", "/pix <chave>", "guarda a sua chave Pix (CPF, CNPJ, e-mail, +55 telefone ou aleatória)",
           "/pix ana@exemplo.com", "Sua chave Pix: /pix <chave>"),
    _write("cartao", "/cartao <nome> fecha <dia> vence <dia>", "cadastra um cartão de crédito",
           "/cartao Nubank fecha 3 vence 10", "Cadastrar cartão: /cartao Nubank fecha 3 vence 10"),
    Command("cartoes", "/cartoes", "os cartões, com a fatura aberta de cada um", "/cartoes",
            menu="Cartões e faturas abertas", reads=True),
    Command("fatura", "/fatura <cartão> [AAAA-MM]", "a fatura do cartão: cada compra e parcela, o total e "
            "o vencimento", "/fatura Nubank", menu="Fatura do cartão: /fatura Nubank", reads=True),
    Command("extrato", "/extrato [AAAA-MM]", "cada lançamento do mês: quando, o quê, quanto e quem", "/extrato",
            menu="Lançamentos do mês", reads=True),
    Command("desfazer", "/desfazer", "propõe desfazer a última operação confirmada", "/desfazer",
            menu="Desfazer a última operação"),
    _write("renomear", "/renomear <nome> para <novo nome>", "renomeia uma despesa ou meta",
           "/renomear mercado para Feira", "Renomear: /renomear mercado para Feira"),
    _write("arquivar", "/arquivar <despesa ou meta>", "tira do resumo o que não se usa mais; o histórico fica",
           "/arquivar Academia", "Arquivar despesa ou meta"),
    Command("exportar", "/exportar [AAAA-MM]", "planilha (CSV) com os lançamentos do mês ou de tudo",
            "/exportar 2026-06", menu="Planilha dos lançamentos"),
    Command("entrar", "/entrar [nome]", None, "/entrar", menu="Pedir para entrar na casa"),
    Command("sair", "/sair", None, "/sair", menu="Sair da casa"),
    Command("apagar", "/apagar", None, "/apagar", menu="Apagar todos os dados da casa"),
    Command("ajuda", "/ajuda", "esta mensagem", "/ajuda", menu="O que o bot entende", aliases=("help",),
            essential=True),
)

_BY_NAME: Final[Mapping[str, Command]] = MappingProxyType(
    {name: command for command in COMMANDS for name in command.names})


def find(name: str) -> Command | None:
    """The command answering to `name` (without the slash, any case), or None."""
    return _BY_NAME.get(name.lower())


def named(name: str) -> Command:
    """The command answering to `name`; KeyError for none."""
    command = find(name)
    if command is None:
        raise KeyError(name)
    return command


def closest(name: str, extra: Sequence[str] = ()) -> str | None:
    """The command name (or one of `extra`, an adapter's own) closest to a mistyped `name`
    ("gasot" -> "gasto"), or None when none is close (difflib)."""
    matches = get_close_matches(name.lower(), [*_BY_NAME, *extra], n=1, cutoff=CLOSE_ENOUGH)
    return matches[0] if matches else None


CLOSE_ENOUGH: Final = 0.6  # difflib's ratio: "gasot"/"gasto" 0.8, "poll"/"sair" 0.25


def essentials() -> list[Command]:
    """The commands named when the model is down."""
    return [c for c in COMMANDS if c.essential]
