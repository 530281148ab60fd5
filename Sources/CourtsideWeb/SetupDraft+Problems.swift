import CourtsideEvent
import CourtsideLocalization

extension EventProblem {
    /// The problem in `words`' language, as ``EventError/message`` says it in English for
    /// `courtside tournament plan`.
    func text(_ words: Words) -> String {
        switch self {
        case .csv(let file, let line?, let problem):
            return words(.setupProblemCSVLine, ["file": file, "line": words.number(line), "problem": problem.text(words)])
        case .csv(let file, nil, let problem):
            return words(.setupProblemCSVFile, ["file": file, "problem": problem.text(words)])
        case .doesNotFit(let games, let courts, let end, let needed, let until):
            let values = [
                "courts": words.plural(.setupProblemCourtCount, count: courts), "end": "\(end)",
                "needed": needed.map(words.number) ?? "", "until": until.map { "\($0)" } ?? "",
            ]
            let key: MessageKey =
                switch (needed, until) {
                case (.some, .some): .setupProblemFitCourtsOrUntil
                case (.some, nil): .setupProblemFitCourts
                case (nil, .some): .setupProblemFitUntil
                case (nil, nil): .setupProblemFitNever
                }
            return words.plural(key, count: games, values)
        case .format(let division, let teams, let problem):
            let key: MessageKey =
                switch problem {
                case .tooFewTeams: .setupProblemFormatTooFew
                case .tooManyTeams: .setupProblemFormatTooMany
                case .options: .setupProblemFormatOptions
                }
            return words.plural(key, count: teams, ["division": division])
        }
    }
}

extension CSVProblem {
    /// The problem of a CSV's line in `words`' language.
    func text(_ words: Words) -> String {
        switch self {
        case .empty: words(.setupProblemCSVEmpty)
        case .quoteNeverClosed: words(.setupProblemCSVQuoteOpen)
        case .textAfterQuote: words(.setupProblemCSVAfterQuote)
        case .tooManyCells(let cells, let columns):
            words(.setupProblemCSVCells, ["cells": words.number(cells), "columns": words.number(columns)])
        case .columnTwice(let first, let second):
            words(.setupProblemCSVColumnTwice, ["first": words.number(first), "second": words.number(second)])
        case .noNameColumn: words(.setupProblemCSVNoNameColumn)
        case .playersTwice: words(.setupProblemCSVPlayersTwice)
        case .noName: words(.setupProblemCSVNoName)
        case .unusableText(let field): words(.setupProblemCSVText, ["field": field.text(words)])
        case .unusableID: words(.setupProblemCSVID)
        case .badSeed: words(.setupProblemCSVSeed)
        case .badPoints: words(.setupProblemCSVPoints)
        case .idTwice(let id, let line):
            words(.setupProblemCSVIDTwice, ["id": id, "first": words.number(line)])
        case .nameTwice(let name, let line):
            words(.setupProblemCSVNameTwice, ["name": name, "first": words.number(line)])
        case .unknownDivision(let team, let divisions):
            words(.setupProblemCSVDivisionUnknown, ["team": team, "divisions": divisions])
        case .severalDivisions(let team, let divisions):
            words(.setupProblemCSVDivisionSeveral, ["team": team, "divisions": divisions])
        case .divisionElsewhere(let team, let division):
            words(.setupProblemCSVDivisionElsewhere, ["team": team, "division": division])
        case .noDivision(let team, let divisions):
            words(.setupProblemCSVDivisionNone, ["team": team, "divisions": divisions])
        }
    }
}

extension CSVField {
    /// The cell's name in `words`' language.
    func text(_ words: Words) -> String {
        switch self {
        case .name: words(.setupProblemCSVFieldName)
        case .club: words(.setupProblemCSVFieldClub)
        case .division: words(.setupProblemCSVFieldDivision)
        case .player(let number): words(.setupProblemCSVFieldPlayer, ["number": words.number(number)])
        }
    }
}
