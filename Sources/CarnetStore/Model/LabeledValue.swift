/// One value of a multi-value property, with its label and a stable identifier.
///
/// The identifier is assigned by the store when the value is first saved and never changes or gets reused.
/// A new value (not saved yet) has a `nil` identifier; when a list is saved, values that carry the identifier
/// of one of the contact's values replace that value, and the others are added with fresh identifiers.
public struct LabeledValue<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The store-assigned identifier, or `nil` for a value not saved yet.
    public var identifier: String?
    /// A well-known label (see ``ContactLabel``) or any custom string; `nil` for none.
    public var label: String?
    public var value: Value

    public init(identifier: String? = nil, label: String? = nil, value: Value) {
        self.identifier = identifier
        self.label = label
        self.value = value
    }

    /// The same value with another label; the identifier is kept.
    public func settingLabel(_ label: String?) -> Self {
        var copy = self
        copy.label = label
        return copy
    }

    /// The same label and identifier with another value.
    public func settingValue(_ value: Value) -> Self {
        var copy = self
        copy.value = value
        return copy
    }
}
