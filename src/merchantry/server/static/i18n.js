// UI text in the rulebooks' languages. The language comes from the switch (kept in localStorage) or the browser.
const STRINGS = {
  en: {
    lobby: "Lobby", newTable: "New table", game: "Game", players: "Players", yourName: "Your name",
    seat: "Seat", human: "Person (invite)", create: "Create table", tables: "Tables", watch: "Watch",
    replay: "Replay", open: "Open", status_waiting: "waiting for players", status_playing: "playing",
    status_finished: "finished", join: "Join", joinAs: "Take seat {seat}", invites: "Invite links",
    copy: "Copy", copied: "Copied", handToBot: "Give to bot", waitingFor: "Waiting for {who}",
    yourTurn: "Your turn", spectator: "You are watching", refused: "Not allowed", hand: "Your hand",
    right: "Right group", left: "Left group", yourBid: "Your bid", seal: "Seal bid", sitOut: "Seal (sit out)",
    sealed: "sealed", thinking: "choosing…", takeRight: "Take right", takeLeft: "Take left",
    takeBid: "Take {seat}'s bid", keep: "Take my bid back", deck: "Deck", round: "Round", finalRound: "Final round",
    scores: "Scores", winner: "Winner", log: "Game log", rules: "Rules", move: "Move", moves: "Moves",
    typeMove: "Type a move (e.g. add EUR20)", send: "Play", score: "Score", coins: "Coins", total: "Total",
    knownCards: "Known cards", cards: "cards", acted: "acted", first: "First", prev: "Back", next: "Next",
    last: "End", you: "you", result: "Result", options: "Options", backToLobby: "Lobby", bidValue: "value",
    order: "Order", turnClock: "Turn clock (seconds, 0 = off)", prices: "Prices", stock: "Bazaar", cash: "Grands",
  },
  pt: {
    lobby: "Salão", newTable: "Nova mesa", game: "Jogo", players: "Jogadores", yourName: "O seu nome",
    seat: "Lugar", human: "Pessoa (convite)", create: "Criar mesa", tables: "Mesas", watch: "Assistir",
    replay: "Rever", open: "Abrir", status_waiting: "à espera de jogadores", status_playing: "a jogar",
    status_finished: "terminado", join: "Entrar", joinAs: "Ocupar o lugar {seat}", invites: "Convites",
    copy: "Copiar", copied: "Copiado", handToBot: "Dar a um robô", waitingFor: "À espera de {who}",
    yourTurn: "A sua vez", spectator: "Está a assistir", refused: "Não permitido", hand: "A sua mão",
    right: "Grupo da direita", left: "Grupo da esquerda", yourBid: "A sua licitação", seal: "Fechar licitação",
    sitOut: "Fechar (não participar)", sealed: "fechada", thinking: "a escolher…", takeRight: "Ficar com a direita",
    takeLeft: "Ficar com a esquerda", takeBid: "Ficar com a licitação de {seat}", keep: "Recolher a minha licitação",
    deck: "Baralho", round: "Ronda", finalRound: "Última ronda", scores: "Pontuação", winner: "Vencedor",
    log: "Registo", rules: "Regras", move: "Jogada", moves: "Jogadas", typeMove: "Escreva uma jogada (ex.: add EUR20)",
    send: "Jogar", score: "Pontos", coins: "Moedas", total: "Total", knownCards: "Cartas conhecidas",
    cards: "cartas", acted: "jogou", first: "Início", prev: "Anterior", next: "Seguinte", last: "Fim", you: "você",
    result: "Resultado", options: "Opções", backToLobby: "Salão", bidValue: "valor", order: "Ordem", turnClock: "Relógio por vez (segundos, 0 = sem)", prices: "Preços", stock: "Bazar", cash: "Grands",
  },
  de: {
    lobby: "Lobby", newTable: "Neuer Tisch", game: "Spiel", players: "Spieler", yourName: "Dein Name",
    seat: "Platz", human: "Person (Einladung)", create: "Tisch eröffnen", tables: "Tische", watch: "Zuschauen",
    replay: "Wiederholung", open: "Öffnen", status_waiting: "wartet auf Spieler", status_playing: "läuft",
    status_finished: "beendet", join: "Beitreten", joinAs: "Platz {seat} nehmen", invites: "Einladungslinks",
    copy: "Kopieren", copied: "Kopiert", handToBot: "An Bot geben", waitingFor: "Warte auf {who}",
    yourTurn: "Du bist dran", spectator: "Du schaust zu", refused: "Nicht erlaubt", hand: "Deine Hand",
    right: "Rechte Gruppe", left: "Linke Gruppe", yourBid: "Dein Gebot", seal: "Gebot abgeben",
    sitOut: "Abgeben (aussetzen)", sealed: "abgegeben", thinking: "wählt…", takeRight: "Rechts nehmen",
    takeLeft: "Links nehmen", takeBid: "Gebot von {seat} nehmen", keep: "Eigenes Gebot zurücknehmen",
    deck: "Stapel", round: "Runde", finalRound: "Letzte Runde", scores: "Punkte", winner: "Sieger",
    log: "Spielverlauf", rules: "Regeln", move: "Zug", moves: "Züge", typeMove: "Zug eingeben (z. B. add EUR20)",
    send: "Spielen", score: "Punkte", coins: "Münzen", total: "Summe", knownCards: "Bekannte Karten",
    cards: "Karten", acted: "fertig", first: "Anfang", prev: "Zurück", next: "Weiter", last: "Ende", you: "du",
    result: "Ergebnis", options: "Optionen", backToLobby: "Lobby", bidValue: "Wert", order: "Reihenfolge", turnClock: "Zugzeit (Sekunden, 0 = aus)", prices: "Preise", stock: "Basar", cash: "Grands",
  },
  fr: {
    lobby: "Salon", newTable: "Nouvelle table", game: "Jeu", players: "Joueurs", yourName: "Votre nom",
    seat: "Place", human: "Personne (invitation)", create: "Créer la table", tables: "Tables", watch: "Regarder",
    replay: "Revoir", open: "Ouvrir", status_waiting: "en attente de joueurs", status_playing: "en cours",
    status_finished: "terminée", join: "Rejoindre", joinAs: "Prendre la place {seat}", invites: "Liens d'invitation",
    copy: "Copier", copied: "Copié", handToBot: "Confier à un robot", waitingFor: "En attente de {who}",
    yourTurn: "À vous", spectator: "Vous regardez", refused: "Interdit", hand: "Votre main",
    right: "Groupe de droite", left: "Groupe de gauche", yourBid: "Votre offre", seal: "Sceller l'offre",
    sitOut: "Sceller (passer)", sealed: "scellée", thinking: "choisit…", takeRight: "Prendre à droite",
    takeLeft: "Prendre à gauche", takeBid: "Prendre l'offre de {seat}", keep: "Reprendre mon offre",
    deck: "Pioche", round: "Manche", finalRound: "Dernière manche", scores: "Scores", winner: "Gagnant",
    log: "Journal", rules: "Règles", move: "Coup", moves: "Coups", typeMove: "Tapez un coup (ex. add EUR20)",
    send: "Jouer", score: "Points", coins: "Pièces", total: "Total", knownCards: "Cartes connues",
    cards: "cartes", acted: "a joué", first: "Début", prev: "Précédent", next: "Suivant", last: "Fin", you: "vous",
    result: "Résultat", options: "Options", backToLobby: "Salon", bidValue: "valeur", order: "Ordre", turnClock: "Temps par tour (secondes, 0 = sans)", prices: "Prix", stock: "Bazar", cash: "Grands",
  },
};

export const LANGUAGES = { en: "English", pt: "Português", de: "Deutsch", fr: "Français" };

export function language() {
  const chosen = localStorage.getItem("merchantry:lang");
  if (chosen && STRINGS[chosen]) return chosen;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return STRINGS[browser] ? browser : "en";
}

export function setLanguage(lang) {
  localStorage.setItem("merchantry:lang", lang);
}

export function t(key, vars = {}) {
  const text = STRINGS[language()][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => vars[name] ?? "");
}
