import HTTPTypes

extension HTTPFields {
    /// The field's value, as `self[name]` gives it, without building a joined string when the field appears once.
    ///
    /// `self[name]` joins every value through generic lazy sequences even for a single field: for the four
    /// fields a GraphQL request reads, that came to a tenth of the server's instructions for `{ __typename }`.
    func value(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            // Repeated (an `Accept` list over two lines): joined, with the separator the subscript uses.
            if found != nil { return self[name] }
            found = field.value
        }
        return found
    }
}
