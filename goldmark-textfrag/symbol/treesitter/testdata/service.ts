import { Injectable } from "./di";

/** A stored user. */
export interface User {
  id: number;
  name: string;
  rename(to: string): User;
}

export type UserId = User["id"];

export enum Role {
  Reader,
  Writer,
}

// Where users are kept.
export abstract class Store<T extends { id: number }> {
  abstract get(id: number): T | undefined;
  protected readonly items = new Map<number, T>();
}

/**
 * Finds and saves users.
 */
@Injectable()
export class UserService {
  constructor(private readonly store: Store<User>) {}

  find(id: number): User;
  find(name: string): User;
  find(key: number | string): User {
    return this.lookup(key);
  }

  private lookup = (key: number | string): User => {
    throw new Error(String(key));
  };
}

export namespace Validation {
  export const maxName = 64;

  export function valid(u: User): boolean {
    return u.name.length <= maxName;
  }
}

export const byId = <T extends { id: number }>(a: T, b: T): number =>
  a.id - b.id;

let counter = 0,
  limit = 10;

export default function createService(store: Store<User>): UserService {
  return new UserService(store);
}
