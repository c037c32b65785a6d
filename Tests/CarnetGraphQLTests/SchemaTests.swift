import CarnetGraphQL
import CarnetStore
import Foundation
import GraphQL
import Testing

@testable import CarnetGraphQL

@Suite("The schema contract")
struct SchemaTests {
    static var schemaFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("schema/carnet.graphql")
    }

    @Test("The served schema, printed, equals schema/carnet.graphql")
    func printedSchemaMatchesFile() throws {
        let file = try String(contentsOf: Self.schemaFile, encoding: .utf8)
        #expect(CarnetSchema.printed == file, "run `swift run carnet schema > schema/carnet.graphql`")
    }

    @Test("The schema is valid and every type, field, argument and enum value has a description")
    func describedEverywhere() throws {
        #expect(validateSchema(schema: CarnetSchema.schema).isEmpty)
        var missing: [String] = []
        for (name, type) in CarnetSchema.schema.typeMap where !name.hasPrefix("__") {
            switch type {
            case let object as GraphQLObjectType:
                if object.description == nil { missing.append(name) }
                for (fieldName, field) in try object.fields() {
                    if field.description == nil { missing.append("\(name).\(fieldName)") }
                    for (argument, value) in field.args where value.description == nil {
                        missing.append("\(name).\(fieldName)(\(argument))")
                    }
                }
            case let interface as GraphQLInterfaceType:
                if interface.description == nil { missing.append(name) }
                for (fieldName, field) in try interface.fields() where field.description == nil {
                    missing.append("\(name).\(fieldName)")
                }
            case let input as GraphQLInputObjectType:
                if input.description == nil { missing.append(name) }
                for (fieldName, field) in try input.fields() where field.description == nil {
                    missing.append("\(name).\(fieldName)")
                }
            case let enumeration as GraphQLEnumType:
                if enumeration.description == nil { missing.append(name) }
                for value in enumeration.values where value.description == nil {
                    missing.append("\(name).\(value.name)")
                }
            case let scalar as GraphQLScalarType:
                if scalar.description == nil && !["String", "Int", "Float", "Boolean", "ID"].contains(name) {
                    missing.append(name)
                }
            default:
                continue
            }
        }
        #expect(missing.isEmpty, "\(missing)")
    }

    @Test("Every store key is a Contact field, and every field is executable")
    func everyKeyQueryable() throws {
        let contact = try #require(SchemaIndex.shared.types["Contact"])
        for key in ContactKeyNames.all {
            #expect(contact.field(key) != nil, "Contact.\(key) is missing")
        }
        for (type, info) in SchemaIndex.shared.types {
            guard case .object(let fields, _) = info, !type.hasPrefix("__") else { continue }
            for name in fields.keys {
                #expect(FieldCodes.code(type, name) >= 0, "\(type).\(name) has no executor code")
            }
        }
    }
}

enum ContactKeyNames {
    static var all: [String] { ContactKey.allCases.map(\.rawValue) }
}
