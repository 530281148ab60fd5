import CourtsideLocalization

extension KeeperGateway {
    /// The join page, with what the last try came to (`?link=expired`, `?pin=wrong`,
    /// `?pin=wait&seconds=N` after wrong PINs, `?pin=slow&seconds=N` over the join rate), every
    /// word in the request's language (`words`), and the picker that changes it.
    struct JoinPage {
        var lang: String
        var title: String
        var heading: String
        var lead: String
        var pinLabel: String
        var nameLabel: String
        var nameExample: String
        var submit: String
        var message: String?
        var picker: LanguagePicker.Picker

        /// `path`: the page's own address, where the picker sends the browser back.
        init(link: String?, pin: String?, seconds: String?, words: Words = .english, path: String = "/keep") {
            lang = words.language.code
            title = words(.joinTitle)
            heading = words(.joinHeading)
            lead = words(.joinLead)
            pinLabel = words(.joinPIN)
            nameLabel = words(.joinName)
            nameExample = words(.joinNameExample)
            submit = words(.joinSubmit)
            picker = LanguagePicker.picker(words, back: path)
            let wait = seconds.flatMap { Int($0) }.map { words.plural(.joinWaitSeconds, count: $0) } ?? words(.joinWaitMoment)
            message =
                switch (link, pin) {
                case ("expired", _): words(.joinLinkExpired)
                case (_, "wrong"): words(.joinPINWrong)
                case (_, "wait"): words(.joinPINWait, ["wait": wait])
                case (_, "slow"): words(.joinSlow, ["wait": wait])
                default: nil
                }
        }
    }
}
