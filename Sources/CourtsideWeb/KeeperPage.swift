import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels

extension KeeperGateway {
    /// The keeper page's frame in the request's language: the court, the device, the court's
    /// games to switch between, and every word the page shows or its script fills (with the
    /// placeholders the script fills: `{player}`, `{count}`...), refusals by their codes included.
    struct KeeperPage {
        struct Game {
            var game: String
            var label: String
            var exists: Bool
            var current: Bool
        }
        /// A move's button: the protocol's name, its label, how the outbox lists it, and how a
        /// screen reader says it.
        struct Move {
            var move: String
            var button: String
            var text: String
            var spoken: String
            /// The spoken words after the label, hidden but for a screen reader, where they differ
            /// from it: the button's name then starts with what it shows ("+2 2 points"), so a
            /// voice-control user saying "+2" finds it (WCAG's label in name).
            var spokenAfter: String?

            init(move: String, button: String, text: String, spoken: String) {
                (self.move, self.button, self.text, self.spoken) = (move, button, text, spoken)
                spokenAfter = spoken.lowercased() == button.lowercased() ? nil : spoken
            }
        }
        var lang: String
        var title: String
        var court: String
        var device: String
        var games: [Game]
        var gameLabel: String
        var noGamesText: String
        var picker: LanguagePicker.Picker
        /// What the banner says while the page hears no events, though its requests are answered.
        var silentText: String
        /// What it says while the gateway answers but the daemon does not (a 503, or the
        /// gateway out of sync with it): the phone is online.
        var serverText: String
        /// Why clock and time-outs wait while the page hears no events and has fetched no state lately.
        var silentWhyText: String
        /// Why they wait while requests fail, or the daemon does not answer.
        var offlineWhyText: String
        /// A clock or time-out command that got no answer: from the phone's network, or from the daemon.
        var notSentOfflineText: String
        var notSentServerText: String
        /// The outbox's words: a tap ("Ann +2"), its undo, their buttons' spoken names, the
        /// offline banner's count (one, and the form of other counts), a refusal, what follows
        /// a halt's own message, and the live region's line for a tap.
        var tapText: String
        var undoText: String
        var undoLabelText: String
        var dropLabelText: String
        var offlineOneText: String
        var offlineManyText: String
        var refusedText: String
        var haltedText: String
        var joinAgainText: String
        var announceText: String
        var announceRefusedText: String
        /// The hint under the players, as the taps go: none yet, a player tapped, a move first.
        var hintTapText: String
        var hintMoveText: String
        var hintPickText: String
        /// An outbox line's state and its button.
        var queuedText: String
        var confirmedText: String
        var refusedStateText: String
        var undoButtonText: String
        var dropButtonText: String
        /// The frame's own words until the game's view arrives.
        var connectingText: String
        var homeText: String
        var awayText: String
        var clockStartText: String
        var timeoutText: String
        var movesLabel: String
        var controlsLabel: String
        var tapsHeading: String
        var playsHeading: String
        var leaveText: String
        /// Each refusal a keeper can meet, by its code; ``refusalOtherText`` for any other.
        var refusals: [Refusals.Refusal]
        var refusalOtherText: String
        /// Points first, then the rest, as a keeper reaches for them.
        var moves: [Move]

        /// `path`: the page's own address, where the picker sends the browser back.
        init(device: String, lineup: CourtLineup, words: Words = .english, path: String = "/keep") {
            lang = words.language.code
            title = words(.keeperTitle, ["court": lineup.court])
            (court, self.device) = (lineup.court, device)
            games = lineup.entries.map {
                Game(game: $0.game.rawValue, label: $0.label(words), exists: $0.exists, current: $0.game == lineup.current)
            }
            gameLabel = words(.keeperGame, ["court": lineup.court])
            noGamesText = words(.keeperNoGames, ["court": lineup.court])
            picker = LanguagePicker.picker(words, back: path)
            (silentText, serverText) = (words(.keeperSilent), words(.keeperServer))
            (silentWhyText, offlineWhyText) = (words(.keeperSilentWhy), words(.keeperOfflineWhy))
            (notSentOfflineText, notSentServerText) = (words(.keeperNotSentOffline), words(.keeperNotSentServer))
            tapText = words(.keeperPlay)
            undoText = words(.keeperUndo)
            (undoLabelText, dropLabelText) = (words(.keeperUndoLabel), words(.keeperDropLabel))
            offlineOneText = words.plural(.keeperOffline, count: 1)
            offlineManyText = Self.pattern(.keeperOffline, count: 2, words)
            refusedText = words(.keeperRefused)
            (haltedText, joinAgainText) = (words(.keeperHalted), words(.keeperJoinAgain))
            (announceText, announceRefusedText) = (words(.keeperAnnounce), words(.keeperAnnounceRefused))
            (hintTapText, hintMoveText, hintPickText) = (words(.keeperHintTap), words(.keeperHintMove), words(.keeperHintPick))
            (queuedText, confirmedText, refusedStateText) = (
                words(.keeperStateQueued), words(.keeperStateConfirmed), words(.keeperStateRefused)
            )
            (undoButtonText, dropButtonText) = (words(.keeperButtonUndo), words(.keeperButtonDrop))
            (connectingText, homeText, awayText) = (words(.keeperConnecting), words(.sideHome), words(.sideAway))
            (clockStartText, timeoutText) = (words(.keeperClockStart), words(.keeperTimeout))
            (movesLabel, controlsLabel) = (words(.keeperMoves), words(.keeperControls))
            (tapsHeading, playsHeading, leaveText) = (words(.keeperTaps), words(.keeperPlays), words(.keeperLeave))
            refusals = Refusals.all(words)
            refusalOtherText = words(Refusals.other)
            moves = [MoveKind.onePoint, .twoPoints, .freeThrow, .assist, .rebound, .foul].map {
                Move(
                    move: $0.rawValue, button: KeeperWords.button($0, words: words),
                    text: GameViewModel.moveText($0, words: words), spoken: KeeperWords.spoken($0, words: words))
            }
        }

        /// The form of `key` for `count` with its `{count}` left for the script to fill: the
        /// language's own, or English's where its catalog lacks the key.
        static func pattern(_ key: MessageKey, count: Int, _ words: Words) -> String {
            Catalogs.catalog(words.language)?.text(key, count: count) ?? Catalogs.catalog(.english)?.text(key, count: count)
                ?? words.plural(key, count: count)
        }
    }
}
